# The routes the hot-path benchmarks measure, shared by hotpaths.sh and compare.sh: each route's
# request and expected answer (spec), a curl of it, its sanity check, what a run of it needs made
# first (prep) and its wrk run. Sourced after the seeding's env.sh, with BASE, WORK, HERE, PLAT and
# WRK_TIMEOUT set and fail() defined; route_env derives the platforms' headers from env.sh.
# shellcheck shell=bash disable=SC2034

route_env() {
  WLM="$BASE/warrantylife/mapi/wi/100"
  WL_H=(-H "Authorization: Bearer $WL_SDK_KEY" -H "User-Agent: WarpLink-Android/1.1.0")
  WY_H=(-H "X-WL-Developer-Key: $WL_DEV_KEY" -H "Authorization: $WL_AUTH")
  AS_H=(-H "x-api-key: $ASLEEP_KEY" -H "User-Agent: AsleepSDK/3.3.0")
}
# spec NAME: the route's request (METHOD URL BODY H=(headers)), the answer it must give (EXPECT PATTERN), its label.
spec() {
  BODY=""; METHOD=GET; H=()
  case $1 in
    health)    LABEL="/__admin/health"; URL="$BASE/__admin/health"; EXPECT=200; PATTERN='"ok"' ;;
    resolve)   LABEL="WarpLink resolve"; URL="$BASE/warplink/v1/links/resolve/bench3?domain=aplnk.to"; H=("${WL_H[@]}"); EXPECT=200; PATTERN='"slug":"bench3"' ;;
    resolve-tap) LABEL="WarpLink resolve, SDK tap id"; URL="$BASE/warplink/v1/links/resolve/bench3?domain=aplnk.to"; H=("${WL_H[@]}"); EXPECT=200
               PATTERN='"slug":"bench3"' ;;
    validate)  LABEL="WarpLink validate"; URL="$BASE/warplink/v1/sdk/validate"; H=("${WL_H[@]}"); EXPECT=200; PATTERN='"valid":true' ;;
    voucher)   LABEL="WarrantyLife voucher lookup"; URL="$WLM/vouchers/BENCH?isPlanTransfer=false&activeWarrantiesInCurrentDevice=0&deviceId=BENCH-DEVICE"
               H=("${WY_H[@]}"); EXPECT=200; PATTERN='"voucherCode":"BENCH"' ;;
    appconfig) LABEL="WarrantyLife app-config"; URL="$WLM/app-config"; H=(-H "X-WL-Developer-Key: $WL_DEV_KEY"); EXPECT=200; PATTERN='"countries"' ;;
    report)    LABEL="Asleep report fetch"; URL="$BASE/asleep/data/v3/sessions/$ASLEEP_REPORT_SESSION"; H=("${AS_H[@]}" -H "x-user-id: $ASLEEP_USER")
               EXPECT=200; PATTERN='"sleep_stages"' ;;
    me)        LABEL="Telematics current user"; URL="$BASE/telematics/api/v1/users/me"; H=(-H "Authorization: Bearer $TM_HUNDRED_TOKEN"); EXPECT=200; PATTERN='"userId":4' ;;
    trips)     LABEL="Telematics trips (100)"; URL="$BASE/telematics/api/v1/trips"; H=(-H "Authorization: Bearer $TM_HUNDRED_TOKEN"); EXPECT=200; PATTERN='"distanceKm"' ;;
    match)     LABEL="WarpLink attribution match"; METHOD=POST; URL="$BASE/warplink/v1/attribution/match"; BODY="$WORK/match.json"
               H=("${WL_H[@]}" -H "Content-Type: application/json"); EXPECT=200; PATTERN='"matched"' ;;
    upload)    LABEL="Asleep 30 KB upload"; METHOD=POST; URL="$BASE/asleep/ai/v1/sessions/$ASLEEP_SESSION/upload"; H=("${AS_H[@]}"); EXPECT=200; PATTERN='"seq_num":0' ;;
    sensor)    LABEL="WarrantyLife sensor event"; METHOD=PUT; URL="$WLM/items/$WL_ITEM"; BODY="$WORK/sensor.json"
               H=("${WY_H[@]}" -H "Content-Type: application/json"); EXPECT=202; PATTERN='"sensorEventId"' ;;
    telemetry) LABEL="Telematics telemetry"; METHOD=POST; URL="$BASE/telematics/api/v1/telemetry"; EXPECT=202; PATTERN='"accepted":1000' ;;
    readings)  LABEL="WarrantyLife readings"; METHOD=POST; URL="$WLM/items/$WL_ITEM/events/$WL_EVENT/readings"; BODY="$WORK/readings.json.gz"
               H=("${WY_H[@]}" -H "Content-Encoding: gzip"); EXPECT=201; PATTERN='"received":1000' ;;
    *) fail "unknown route '$1' (routes: health resolve resolve-tap validate voucher appconfig report me trips match upload sensor)" ;;
  esac
}

# curl_route NAME OUTFILE → the HTTP status; upload sends seq_num 0 of the session, telemetry the sanity batch.
curl_route() {
  spec "$1"
  local extra=()
  case $1 in
    upload) extra=(-H "x-user-id: $ASLEEP_USER" -F seq_num=0 -F "file=@$WORK/chunk.npy;filename=0.npy;type=application/octet-stream") ;;
    telemetry) extra=(-H "Authorization: Bearer $TM_SANITY_TOKEN" -H "Content-Type: application/json" --data-binary @"$WORK/telemetry-sanity.json") ;;
    *) [ -n "$BODY" ] && extra=(--data-binary @"$BODY") ;;
  esac
  curl -s -o "$2" -w '%{http_code}' -X "$METHOD" "${H[@]}" "${extra[@]}" "$URL" || echo "curl-error"
}
check() { # NAME: the real response must be the documented one; it is kept as nginx's same-size file
  spec "$1"
  local status; status=$(curl_route "$1" "$WORK/static/$1.json")
  if [ "$status" != "$EXPECT" ] || ! grep -q -- "$PATTERN" "$WORK/static/$1.json"; then
    echo "  ✗ $LABEL: HTTP $status (expected $EXPECT with /$PATTERN/): $(head -c 400 "$WORK/static/$1.json")" >&2
    fail "sanity check of $1"
  fi
  echo "  ✓ $LABEL → $status, $(wc -c < "$WORK/static/$1.json") bytes: $(head -c 90 "$WORK/static/$1.json" | tr '\n' ' ')…"
}

TELEMETRY_RUN=0
TELEMETRY_START=0
USERS_PER_THREAD=1
# prep NAME THREADS: what the next run of NAME needs, made before it is measured (fresh Asleep sessions
# with distinct seq_nums ahead; fresh Telematics users, one per connection, so no sample repeats).
prep() {
  case $1 in
    upload) SESSIONS=$(python3 "$PLAT/seed.py" sessions "$BASE" "$ASLEEP_KEY" 4) ;;
    telemetry)
      # One user per connection (the ingest runs with 16), each thread taking turns over its own.
      TELEMETRY_RUN=$((TELEMETRY_RUN + 1))
      TELEMETRY_START=$(( ($(date +%s) - 30 * 86400) / 1000 * 1000000 ))
      USERS_PER_THREAD=$(( 16 / $2 ))
      echo "$((1000 + TELEMETRY_RUN * 100)) $(( $2 * USERS_PER_THREAD ))" > "$WORK/last-users"
      TOKENS=$(python3 "$PLAT/seed.py" tokens "$BASE" "$PROJECT" $((1000 + TELEMETRY_RUN * 100)) $(( $2 * USERS_PER_THREAD )))
      # The batches go gzip-compressed, made now for up to 700 batches a second per thread (this
      # machine's server takes about 220); running out shows as duplicates, which the run fails on.
      mkdir -p "$WORK/telemetry-bodies"
      python3 "$PLAT/seed.py" telemetry-bodies "$WORK/telemetry-bodies" "$TELEMETRY_RUN" "$TELEMETRY_START" "$2" \
        $(( ${DURATION:-5} * 700 + 100 )) "$USERS_PER_THREAD" ;;
  esac
}
# wrk_route NAME wrk-flags… : wrk with stats.lua around the route's script (after prep NAME).
wrk_route() {
  local name=$1; shift
  spec "$name"
  case $name in
    upload)
      SESSIONS=$SESSIONS THREAD_COUNT=1 WRK_INNER="$PLAT/asleep_upload.lua" wrk "$@" --timeout "$WRK_TIMEOUT" -s "$HERE/stats.lua" "${H[@]}" "$BASE/" ;;
    telemetry)
      TOKENS=$TOKENS USERS_PER_THREAD=$USERS_PER_THREAD RUN=$TELEMETRY_RUN START_MS=$TELEMETRY_START TELEMETRY_BODIES="$WORK/telemetry-bodies" WRK_INNER="$PLAT/telemetry.lua" \
        wrk "$@" --timeout "$WRK_TIMEOUT" -s "$HERE/stats.lua" "$URL" ;;
    resolve-tap) WRK_INNER="$PLAT/warplink_tap.lua" wrk "$@" --timeout "$WRK_TIMEOUT" -s "$HERE/stats.lua" "${H[@]}" "$URL" ;;
    *) WRK_METHOD=$METHOD WRK_BODY_FILE=$BODY wrk "$@" --timeout "$WRK_TIMEOUT" -s "$HERE/stats.lua" "${H[@]}" "$URL" ;;
  esac
}
