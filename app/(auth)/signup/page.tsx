import type { Metadata } from "next";
import { safeNextPath } from "@/lib/auth/next-path";
import { getConfig } from "@/lib/core/config";
import { signUpAction } from "../actions";
import { freeAllowance } from "../../_components/plan-cards";
import { AuthForm } from "../auth-form";

export const metadata: Metadata = { title: "Create an account" };

export default async function SignUpPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  return (
    <>
      <h1>Create your account</h1>
      <p className="subtitle">Start free: {freeAllowance()}.</p>
      <AuthForm mode="signup" action={signUpAction} next={safeNextPath(params.next, getConfig().siteUrl)} />
    </>
  );
}
