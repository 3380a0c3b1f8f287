import COpenSSL
import Synchronization

/// A certificate authority of this machine's own that mints a TLS leaf certificate for any host
/// name on demand, so clients that trust it reach Understudy under the real hosts' names.
///
/// ## API (for TLS listeners)
///
/// - `try LocalCertificateAuthority(directory: folder, defaultNames: ["192.168.1.50"])` loads the
///   CA from `folder/understudy-ca.pem` and `folder/understudy-ca.key`, or makes and writes one
///   (folder created if missing). Throws `CertificateAuthorityError` (naming the file) for corrupt,
///   half-present, mismatched or expired files.
/// - `leaf(for: sniName) -> TLSIdentity` never fails and never blocks on I/O: a DNS name (wildcards
///   such as `*.aplnk.to` too) or IP literal gets a leaf for exactly that name, minted on first use
///   (about a millisecond: one P-256 key and one signature) and cached (LRU, `cacheCapacity`);
///   anything else, including garbage SNI, gets `defaultIdentity`. Safe from any thread.
/// - `defaultIdentity`: for clients that send no SNI; covers `localhost`, `127.0.0.1`, `::1` and
///   the `defaultNames` passed in (say, the public URL's host).
/// - `TLSIdentity.install(onConnection: ssl)` from a servername callback (SSL_use_certificate,
///   SSL_use_PrivateKey, the CA as chain), or `install(onContext: ctx)` for a context's default.
///   Raw `certificate`, `chain` and `privateKey` pointers are there for anything else.
/// - `exportCertificate(as: .pem / .der)`: the CA certificate only; the key never leaves its file.
/// - `certificatePath`, `keyPath`; `reset()` replaces the CA (files and memory, cache emptied);
///   `LocalCertificateAuthority.resetFiles(in:)` replaces a CA on disk without loading it first.
///
/// OpenSSL errors are cleared on the thread that caused them, so none leaks into a handshake's
/// error queue.
public final class LocalCertificateAuthority: Sendable {
    /// The CA certificate's file name inside the folder.
    public static let certificateFileName = "understudy-ca.pem"
    /// The CA private key's file name inside the folder (mode 0600).
    public static let keyFileName = "understudy-ca.key"
    /// How many minted leaves are kept by default.
    public static let defaultCacheCapacity = 1_024

    /// The folder the two files live in.
    public let directory: String
    /// The CA certificate's path: what users install on devices.
    public let certificatePath: String
    /// The CA private key's path.
    public let keyPath: String
    /// The names the default identity covers: localhost, the loopback addresses and any extras.
    public let defaultNames: [CertificateName]
    /// The most leaves kept in memory.
    public let cacheCapacity: Int

    private struct State {
        var authority: SigningAuthority
        var defaultIdentity: TLSIdentity
        var leaves: LeastRecentlyUsedCache<CertificateName, TLSIdentity>
    }

    private let state: Mutex<State>

    /// The CA certificate path inside `directory`, for commands that need it without loading the CA.
    public static func certificatePath(in directory: String) -> String {
        path(directory, certificateFileName)
    }

    /// Loads the CA in `directory` or makes one there. `defaultNames` are extra host names or
    /// addresses the no-SNI certificate covers; ones that are neither are left out.
    @inline(never) // classes holding Atomic/Mutex are allocated in their own module: docs/notes/release-heap-corruption.md
    public init(directory: String, defaultNames: [String] = [], cacheCapacity: Int = defaultCacheCapacity) throws(CertificateAuthorityError) {
        self.directory = directory
        certificatePath = Self.path(directory, Self.certificateFileName)
        keyPath = Self.path(directory, Self.keyFileName)
        var names: [CertificateName] = []
        for raw in ["localhost", "127.0.0.1", "::1"] + defaultNames {
            if let name = CertificateName(raw), !names.contains(name) { names.append(name) }
        }
        self.defaultNames = names
        self.cacheCapacity = max(1, cacheCapacity)
        try CertificateAuthorityFiles.createFolder(directory)
        let (certificatePath, keyPath) = (certificatePath, keyPath)
        let authority = try CertificateAuthorityFiles.withFolderLock(directory) { () throws(CertificateAuthorityError) in
            try SigningAuthority.loadOrCreate(certificatePath: certificatePath, keyPath: keyPath)
        }
        let defaultIdentity = try Self.mint(names, by: authority)
        state = Mutex(
            State(
                authority: authority, defaultIdentity: defaultIdentity,
                leaves: LeastRecentlyUsedCache(capacity: self.cacheCapacity)))
    }

    /// The identity served to clients that send no SNI, and to names no certificate can carry.
    public var defaultIdentity: TLSIdentity {
        state.withLock { $0.defaultIdentity }
    }

    /// The identity for a TLS server name or proxy host: a leaf for exactly that name (normalised:
    /// lower case, no trailing dot, IPv6 without brackets), or the default identity when the name
    /// is neither a DNS name nor an IP literal, is one the default covers, or minting failed.
    public func leaf(for name: String) -> TLSIdentity {
        guard let parsed = CertificateName(name) else { return defaultIdentity }
        let (authority, defaultIdentity, cached) = state.withLock { state in
            (state.authority, state.defaultIdentity, state.leaves.value(for: parsed))
        }
        if let cached { return cached }
        if defaultNames.contains(parsed) { return defaultIdentity }
        // Minting happens outside the lock so one slow mint never stalls other event-loop threads;
        // two threads racing for the same new name both mint and the first one stored wins.
        guard let minted = try? Self.mint([parsed], by: authority) else { return defaultIdentity }
        return state.withLock { state in
            guard state.authority === authority else { return minted } // reset meanwhile: do not cache a stale leaf
            if let raced = state.leaves.value(for: parsed) { return raced }
            state.leaves.insert(minted, for: parsed)
            return minted
        }
    }

    /// How many minted leaves are cached now.
    public var cachedLeafCount: Int {
        state.withLock { $0.leaves.count }
    }

    /// Replaces the CA with a new one, on disk and here: leaves it minted before no longer verify,
    /// and devices must trust the new certificate.
    public func reset() throws(CertificateAuthorityError) {
        let authority = try Self.replaceFiles(in: directory)
        let defaultIdentity = try Self.mint(defaultNames, by: authority)
        state.withLock { state in
            state.authority = authority
            state.defaultIdentity = defaultIdentity
            state.leaves.removeAll()
        }
    }

    /// Writes a new CA into `directory` without reading what is there, so a damaged CA can be
    /// replaced (`understudy ca reset`). Returns the new certificate's path. Refuses while a
    /// running server claims the folder (`CertificateAuthorityUse`).
    @discardableResult
    public static func resetFiles(in directory: String) throws(CertificateAuthorityError) -> String {
        _ = try CertificateAuthorityUse.withoutClaims(directory) { () throws(CertificateAuthorityError) in try replaceFiles(in: directory) }
        return certificatePath(in: directory)
    }

    private static func replaceFiles(in directory: String) throws(CertificateAuthorityError) -> SigningAuthority {
        try CertificateAuthorityFiles.createFolder(directory)
        let (certificatePath, keyPath) = (path(directory, certificateFileName), path(directory, keyFileName))
        return try CertificateAuthorityFiles.withFolderLock(directory) { () throws(CertificateAuthorityError) in
            try SigningAuthority.create(certificatePath: certificatePath, keyPath: keyPath)
        }
    }

    /// The CA certificate (never its key) as PEM text or DER bytes.
    public func exportCertificate(as format: CertificateExportFormat) throws(CertificateAuthorityError) -> [UInt8] {
        let authority = state.withLock { $0.authority }
        switch format {
        case .pem: return try PEMCoding.pem(certificate: authority.certificate)
        case .der: return try PEMCoding.der(certificate: authority.certificate)
        }
    }

    private static func mint(_ names: [CertificateName], by authority: SigningAuthority) throws(CertificateAuthorityError) -> TLSIdentity {
        defer { ERR_clear_error() }
        let key = try CertificateMinting.newKey()
        let certificate: OpaquePointer
        do throws(CertificateAuthorityError) {
            certificate = try CertificateMinting.leaf(names: names, key: key, issuer: authority.certificate, issuerKey: authority.key)
        } catch {
            EVP_PKEY_free(key)
            throw error
        }
        // The identity owns one reference to the CA certificate, so it outlives a reset.
        X509_up_ref(authority.certificate)
        return TLSIdentity(certificate: certificate, chain: [authority.certificate], privateKey: key, names: names)
    }

    private static func path(_ directory: String, _ file: String) -> String {
        directory.hasSuffix("/") ? directory + file : "\(directory)/\(file)"
    }
}

/// How the CA certificate is encoded for export.
public enum CertificateExportFormat: String, Sendable, CaseIterable {
    /// Base64 text between BEGIN/END CERTIFICATE lines: curl, nginx, Android, `simctl`.
    case pem
    /// Binary ASN.1: what some device profile installers want (`.cer`, `.crt`).
    case der
}
