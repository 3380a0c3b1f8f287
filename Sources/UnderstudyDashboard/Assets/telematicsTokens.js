// Telematics: minting a token pair for a user (POST …/telematics/tokens, which creates the user
// when it is new), to paste into the SDK's TelematicsTokenInitOptions.

import {api} from './api.js';
import {copyButton, field, fmtDateTime, formMessage, h, kvTable, replace} from './dom.js';

/** The mint form and, once minted, the pair with a copy button for each value. */
export function tokenMinter(base, users, onMinted) {
  const userId = h('input', {name: 'userId', inputmode: 'numeric', autocomplete: 'off', list: 'telematics-user-ids', class: 'short',
    value: users.length ? String(users[0].userId) : '1001'});
  const known = h('datalist', {id: 'telematics-user-ids'}, users.map((u) => h('option', {value: String(u.userId)}, u.userName)));
  const userName = h('input', {name: 'userName', placeholder: 'Test Driver', maxlength: 200, autocomplete: 'off'});
  const accessTtl = h('input', {name: 'accessTtlSeconds', inputmode: 'numeric', placeholder: 'default', class: 'short'});
  const refreshTtl = h('input', {name: 'refreshTtlSeconds', inputmode: 'numeric', placeholder: 'default', class: 'short'});
  const withRefresh = h('input', {type: 'checkbox', name: 'withRefreshToken', checked: true});
  const message = h('div', {class: 'form-message', 'data-role': 'mint-message'});
  const result = h('div', {'data-role': 'mint-result'});
  const form = h('form', {class: 'inline-form', 'data-role': 'mint-form'},
    field('User id', userId, 'a new id creates the user'), known, field('Name', userName, 'for a new user'),
    field('Access lifetime (s)', accessTtl), field('Refresh lifetime (s)', refreshTtl),
    h('label', {class: 'field compact check'}, withRefresh, ' refresh token'),
    h('button', {type: 'submit', class: 'primary'}, 'Mint tokens'), message);

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const id = userId.value.trim();
    if (!/^\d{1,15}$/.test(id) || Number(id) === 0) { formMessage(message, 'The user id is a positive whole number (such as 1001).'); return; }
    const body = {userId: Number(id), withRefreshToken: withRefresh.checked};
    if (userName.value.trim()) body.userName = userName.value.trim();
    for (const [input, key] of [[accessTtl, 'accessTtlSeconds'], [refreshTtl, 'refreshTtlSeconds']]) {
      const text = input.value.trim();
      if (!text) continue;
      if (!(Number(text) > 0)) { formMessage(message, 'Lifetimes are a positive number of seconds, or empty for the default.'); return; }
      body[key] = Number(text);
    }
    try {
      const pair = await api('POST', `${base}/tokens`, body);
      formMessage(message, `Minted a pair for user ${id}.`, 'ok');
      const rows = [['token', pair.token], ['tokenExpires', pair.tokenExpires]];
      if (pair.refreshToken) rows.push(['refreshToken', pair.refreshToken], ['refreshTokenExpires', pair.refreshTokenExpires]);
      replace(result, h('div', {class: 'card inset'},
        h('div', {class: 'card-head'}, h('h3', null, `Tokens for user ${id}`), h('span', {class: 'spacer'}),
          copyButton(JSON.stringify(pair, null, 2), 'Copy as JSON')),
        kvTable(rows, {copy: true}),
        h('p', {class: 'muted'}, pair.refreshToken
          ? `The access token expires ${fmtDateTime(pair.tokenExpires)}, the refresh token ${fmtDateTime(pair.refreshTokenExpires)} (project clock). `
          : `The access token expires ${fmtDateTime(pair.tokenExpires)} (project clock); without a refresh token the session cannot be renewed. `,
        'They go into TelematicsTokenInitOptions as they are.')));
      await onMinted();
    } catch (error) {
      formMessage(message, error.message);
    }
  });
  return h('div', null, form, result);
}
