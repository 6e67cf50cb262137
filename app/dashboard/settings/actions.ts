"use server";
import { headers } from "next/headers";
import { clientAddress, linkOrigin } from "@/lib/api/client-address";
import { changeEmailSchema, changePasswordSchema } from "@/lib/auth/credentials";
import { getAuthProvider } from "@/lib/auth/provider";
import { throttleSignIn } from "@/lib/auth/throttle";
import { getConfig } from "@/lib/core/config";
import { AppError, type ValidationDetail } from "@/lib/core/errors";
import { field, fieldMessages, formAction, formMessage, refuse, type ActionState } from "../_lib/action";

const PAGE = "/dashboard/settings";

// Both changes ask for the current password, a guess at which counts as a failed sign-in of the account: a session
// left open on someone else's screen is not enough to take the account over.

/** A refused change: its message, and a message beside each field it names. */
function refused(error: unknown): ActionState {
  const details = error instanceof AppError ? ((error.options.details ?? []) as ValidationDetail[]) : [];
  return {
    status: "error",
    message: formMessage(error),
    ...(details.length > 0 ? { fields: Object.fromEntries(details.map((d) => [d.field, d.message])) } : {}),
  };
}

export async function changePasswordAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return formAction(formData, {
    page: PAGE,
    input: (form) => {
      const parsed = changePasswordSchema.safeParse({
        currentPassword: field(form, "currentPassword"),
        password: field(form, "password"),
      });
      if (!parsed.success)
        return refuse<ActionState>({
          status: "error",
          message: "Check the highlighted fields.",
          fields: fieldMessages(parsed.error.issues),
        });
      return parsed.data;
    },
    run: async (account, change) =>
      throttleSignIn(account.person.email, clientAddress(await headers()), () =>
        getAuthProvider().changePassword(account.person, change),
      ),
    refused,
    done: (): ActionState => ({
      status: "success",
      message: "Your password was changed. Every other browser signed in to your account was signed out.",
    }),
  });
}

export async function changeEmailAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return formAction(formData, {
    page: PAGE,
    input: (form) => {
      const values = { email: field(form, "email") };
      const parsed = changeEmailSchema.safeParse({ ...values, currentPassword: field(form, "currentPassword") });
      if (!parsed.success)
        return refuse<ActionState>({
          status: "error",
          message: "Check the highlighted fields.",
          fields: fieldMessages(parsed.error.issues),
          values,
        });
      return parsed.data;
    },
    run: async (account, change) => {
      const requestHeaders = await headers();
      return throttleSignIn(account.person.email, clientAddress(requestHeaders), () =>
        getAuthProvider().changeEmail(account.person, change, linkOrigin(requestHeaders)),
      );
    },
    refused: (error, change) => ({ ...refused(error), values: { email: change.email } }),
    // The same answer whether or not the new address has an account: the email there says which.
    done: (linkIn, change): ActionState => ({
      status: "success",
      message:
        linkIn === "inbox"
          ? `We sent a link to ${change.email}. Your email changes when you follow it${getConfig().supabase ? "" : ", within 1 hour"}.`
          : `No email provider is configured, so the link to confirm ${change.email} was printed in the terminal running the app. Your email changes when you follow it, within 1 hour.`,
    }),
  });
}
