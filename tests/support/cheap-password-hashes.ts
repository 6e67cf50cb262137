import { randomBytes, scrypt } from "node:crypto";
import type * as Passwords from "@/lib/auth/passwords";

// For files that count sign-in attempts rather than test hashing: new hashes use scrypt at N=2^10 instead of 2^15, in
// the stored format, so verifyPassword (the real one, reading N from the hash) checks every password as it would in
// production, in 2 ms instead of 80. Use: vi.mock("@/lib/auth/passwords", async (importOriginal) =>
// (await import("../support/cheap-password-hashes")).cheapPasswordHashes(importOriginal)).
const N = 2 ** 10;
const R = 8;
const P = 1;

async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await new Promise<Buffer>((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, 64, { N, r: R, p: P }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
  return ["scrypt", N, R, P, salt.toString("base64url"), hash.toString("base64url")].join("$");
}

export async function cheapPasswordHashes(importOriginal: () => Promise<typeof Passwords>): Promise<typeof Passwords> {
  return { ...(await importOriginal()), hashPassword };
}
