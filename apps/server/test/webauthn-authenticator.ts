import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";

/**
 * A software passkey authenticator for tests: an ES256 key pair per credential, the 'none' attestation and
 * the assertion signature built byte by byte as WebAuthn Level 2 lays them out, so the server's real
 * verification (@simplewebauthn/server) checks them. It signs whatever origin it is told to, which a
 * browser never would: that is how the tests ask for a wrong one.
 */

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

/** The few CBOR types a COSE key and an attestation object need (RFC 8949). */
function cbor(value: unknown): Buffer {
  const head = (major: number, length: number) => {
    if (length < 24) return Buffer.from([(major << 5) | length]);
    if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
    const bytes = Buffer.alloc(3);
    bytes[0] = (major << 5) | 25;
    bytes.writeUInt16BE(length, 1);
    return bytes;
  };
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") {
    const text = Buffer.from(value, "utf8");
    return Buffer.concat([head(3, text.length), text]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (value instanceof Map) {
    const entries = [...(value as Map<unknown, unknown>)].flatMap(([key, item]) => [cbor(key), cbor(item)]);
    return Buffer.concat([head(5, value.size), ...entries]);
  }
  throw new Error(`cbor: can't encode ${typeof value}`);
}

const FLAG = { userPresent: 0x01, userVerified: 0x04, attestedData: 0x40 };

interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  cosePublicKey: Buffer;
  userHandle: string;
  counter: number;
}

export interface Ceremony {
  /** The origin the "browser" puts in clientDataJSON; the authenticator's own by default. */
  origin?: string;
  /** The relying party id the authenticator signs for; its own by default. */
  rpId?: string;
  /** The device checked its user (PIN, biometrics); true by default. */
  userVerified?: boolean;
}

export class SoftAuthenticator {
  readonly credentials: Credential[] = [];

  constructor(
    readonly rpId: string,
    readonly origin: string,
  ) {}

  /** navigator.credentials.create(): a new credential for the options' user, and the browser's JSON. */
  register(options: { challenge: string; user: { id: string } }, ceremony: Ceremony = {}) {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" });
    const cosePublicKey = cbor(
      new Map<number, unknown>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, "base64url")],
        [-3, Buffer.from(jwk.y!, "base64url")],
      ]),
    );
    const credential: Credential = {
      id: randomBytes(16),
      privateKey,
      cosePublicKey,
      userHandle: options.user.id,
      counter: 0,
    };
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const authData = Buffer.concat([
      this.authDataHead(ceremony, FLAG.attestedData, credential.counter),
      Buffer.alloc(16), // AAGUID: none
      idLength,
      credential.id,
      cosePublicKey,
    ]);
    const clientDataJSON = this.clientData("webauthn.create", options.challenge, ceremony);
    const attestationObject = cbor(
      new Map<string, unknown>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    );
    this.credentials.push(credential);
    return {
      credential,
      response: {
        id: b64url(credential.id),
        rawId: b64url(credential.id),
        type: "public-key" as const,
        response: {
          clientDataJSON: b64url(clientDataJSON),
          attestationObject: b64url(attestationObject),
          transports: ["internal"],
        },
        authenticatorAttachment: "platform" as const,
        clientExtensionResults: {},
      },
    };
  }

  /**
   * navigator.credentials.get(): signs the challenge with a credential (the last one made unless given),
   * moving its counter on unless `counter` says which value to sign.
   */
  assert(
    options: { challenge: string },
    ceremony: Ceremony & { credential?: Credential; counter?: number } = {},
  ) {
    const credential = ceremony.credential ?? this.credentials.at(-1);
    if (!credential) throw new Error("SoftAuthenticator: no credential to sign with");
    credential.counter = ceremony.counter ?? credential.counter + 1;
    const authenticatorData = this.authDataHead(ceremony, 0, credential.counter);
    const clientDataJSON = this.clientData("webauthn.get", options.challenge, ceremony);
    const signature = sign(
      "sha256",
      Buffer.concat([authenticatorData, sha256(clientDataJSON)]),
      credential.privateKey,
    );
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: "public-key" as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      authenticatorAttachment: "platform" as const,
      clientExtensionResults: {},
    };
  }

  private authDataHead(ceremony: Ceremony, flags: number, counter: number): Buffer {
    const verified = ceremony.userVerified ?? true;
    const head = Buffer.alloc(37);
    sha256(ceremony.rpId ?? this.rpId).copy(head, 0);
    head[32] = FLAG.userPresent | (verified ? FLAG.userVerified : 0) | flags;
    head.writeUInt32BE(counter, 33);
    return head;
  }

  private clientData(type: string, challenge: string, ceremony: Ceremony): Buffer {
    return Buffer.from(
      JSON.stringify({ type, challenge, origin: ceremony.origin ?? this.origin, crossOrigin: false }),
    );
  }
}
