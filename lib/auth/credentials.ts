import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { MAX_ADDRESS_LENGTH, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "@/lib/core/limits";

// What both providers accept from the auth forms (sign-up, sign-in, password and email changes), and the errors they may answer with.

// Capped before anything else looks at it: the address is a database key and is sent to the auth provider.
const emailSchema = z
  .string()
  .trim()
  .max(MAX_ADDRESS_LENGTH, `Use an email address of at most ${MAX_ADDRESS_LENGTH} characters`)
  .toLowerCase()
  .pipe(z.email({ error: "Enter a valid email address" }));

export const signInSchema = z.object({
  email: emailSchema,
  password: z.string().min(1, "Enter your password").max(MAX_PASSWORD_LENGTH, "That password is too long"),
});

// A password being chosen: at sign-up, on a reset and in Settings alike.
const newPasswordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `Use at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, `Use at most ${MAX_PASSWORD_LENGTH} characters`);
const currentPasswordSchema = z
  .string()
  .min(1, "Enter your current password")
  .max(MAX_PASSWORD_LENGTH, "That password is too long");

export const signUpSchema = z.object({ email: emailSchema, password: newPasswordSchema });
export const forgotPasswordSchema = z.object({ email: emailSchema });
export const resetPasswordSchema = z.object({ password: newPasswordSchema });
export const changePasswordSchema = z.object({ currentPassword: currentPasswordSchema, password: newPasswordSchema });
export const changeEmailSchema = z.object({ email: emailSchema, currentPassword: currentPasswordSchema });

export type Credentials = z.output<typeof signInSchema>;

export const WRONG_CREDENTIALS_MESSAGE = "That email and password don't match an account. Check them and try again.";
// Sign-up with an address that has an account and another password. Worded for anyone, so it names no account.
export const SIGN_UP_FAILED_MESSAGE =
  "We couldn't create an account with that email and password. If you have signed up before, sign in with your password.";

/** Parses form input, turning zod issues into one VALIDATION_ERROR with a message per field (its `details`). */
export function parseCredentials<S extends typeof signInSchema | typeof signUpSchema>(
  schema: S,
  input: unknown,
): Credentials {
  return parseAuthForm(schema, input);
}

/** parseCredentials for any of the auth forms' schemas. */
export function parseAuthForm<S extends z.ZodObject>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const fields: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path[0];
    if (typeof key === "string") fields[key] ??= issue.message;
  }
  const details = Object.entries(fields).map(([field, message]) => ({ field, message }));
  throw new AppError("VALIDATION_ERROR", { message: "Check the highlighted fields.", details });
}
