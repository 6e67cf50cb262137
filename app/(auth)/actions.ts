"use server";
import { redirect } from "next/navigation";
import { AuthError, parseCredentials, signInSchema, signUpSchema } from "@/lib/auth/credentials";
import { safeNextPath } from "@/lib/auth/next-path";
import { getConfig } from "@/lib/config";
import { getAuthProvider } from "@/lib/auth/provider";

export type AuthFormState = {
  status: "idle" | "error" | "check_email";
  message?: string;
  fields?: Partial<Record<"email" | "password", string>>;
  email?: string;
};

export async function signInAction(_previous: AuthFormState, formData: FormData): Promise<AuthFormState> {
  const email = String(formData.get("email") ?? "");
  try {
    const credentials = parseCredentials(signInSchema, { email, password: formData.get("password") ?? "" });
    await getAuthProvider().signIn(credentials);
  } catch (error) {
    return failure(error, email);
  }
  redirect(safeNextPath(formData.get("next"), getConfig().siteUrl));
}

export async function signUpAction(_previous: AuthFormState, formData: FormData): Promise<AuthFormState> {
  const email = String(formData.get("email") ?? "");
  let result;
  try {
    const credentials = parseCredentials(signUpSchema, { email, password: formData.get("password") ?? "" });
    result = await getAuthProvider().signUp(credentials);
  } catch (error) {
    return failure(error, email);
  }
  if (result.status === "check_email") {
    return { status: "check_email", email, message: `We sent a confirmation link to ${email}. Follow it to finish signing up.` };
  }
  redirect(safeNextPath(formData.get("next"), getConfig().siteUrl));
}

export async function signOutAction(): Promise<void> {
  await getAuthProvider().signOut();
  redirect("/signin?signed_out=1");
}

function failure(error: unknown, email: string): AuthFormState {
  if (error instanceof AuthError) return { status: "error", message: error.message, fields: error.fields, email };
  console.error(JSON.stringify({ level: "error", message: "auth action failed", error: error instanceof Error ? error.message : String(error) }));
  return { status: "error", message: "Something went wrong on our side. Please try again in a moment.", email };
}
