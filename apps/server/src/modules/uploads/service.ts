import { randomBytes } from "node:crypto";
import type { UploadStorage } from "./storage";

export const IMAGE_TYPES = {
  jpg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
  avif: "image/avif",
} as const;
export type ImageExtension = keyof typeof IMAGE_TYPES;

/** A stored upload's name: random, so names can't be guessed or collide, with the detected type's extension. */
export const UPLOAD_NAME = /^[a-f0-9]{32}\.(jpg|png|webp|gif|avif)$/;

const ascii = (bytes: Buffer, start: number, end: number) => bytes.subarray(start, end).toString("latin1");

/**
 * The image type from the file's own first bytes (its magic number), never from the name or the client's
 * Content-Type, which anyone can set. Undefined for anything that isn't one of the five accepted formats.
 */
export function detectImageType(bytes: Buffer): ImageExtension | undefined {
  if (bytes.length < 12) return undefined;
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpg";
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return "png";
  if (ascii(bytes, 0, 6) === "GIF87a" || ascii(bytes, 0, 6) === "GIF89a") return "gif";
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WEBP") return "webp";
  // ISO-BMFF: a first 'ftyp' box whose major or compatible brands include AVIF.
  if (ascii(bytes, 4, 8) === "ftyp") {
    const boxSize = Math.min(bytes.readUInt32BE(0), bytes.length);
    const brands = [ascii(bytes, 8, 12)];
    for (let offset = 16; offset + 4 <= boxSize; offset += 4) brands.push(ascii(bytes, offset, offset + 4));
    if (brands.some((brand) => brand === "avif" || brand === "avis")) return "avif";
  }
  return undefined;
}

/** Stores the image under a new random name and answers the address it is shown at. */
export async function storeImage(
  storage: UploadStorage,
  bytes: Buffer,
  extension: ImageExtension,
): Promise<string> {
  const name = `${randomBytes(16).toString("hex")}.${extension}`;
  await storage.put(name, bytes, IMAGE_TYPES[extension]);
  return storage.urlOf(name);
}
