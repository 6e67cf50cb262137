import "server-only";
import { AppError } from "@/lib/core/errors";
import { digest, LINK_TOKEN, newLinkToken, authenticateLocalAccount } from "@/lib/auth/local";
import { hashPassword } from "@/lib/auth/passwords";
import { getConfig } from "@/lib/core/config";
import { findPersonByEmail, setPersonPassword, type Person } from "@/lib/auth/data/accounts";
import {
  findEmailChange,
  saveEmailChange,
  takeEmailChange,
  type EmailChangeTaken,
} from "@/lib/auth/data/email-changes";
import {
  dropExpiredPasswordResets,
  findPasswordReset,
  savePasswordReset,
  takePasswordReset,
} from "@/lib/auth/data/password-resets";
import { sendSystemEmail, type SystemEmailDelivery } from "@/lib/mail-transport/system";

// Local accounts' way back in and their changes of password and email, each by a one-time link mailed by the system
// mailer. Like sign-up, every request answers alike whether or not an address has an account: the mail says which.

export const PASSWORD_RESET_MAX_AGE_SECONDS = 60 * 60;
export const EMAIL_CHANGE_MAX_AGE_SECONDS = 60 * 60;

export const CURRENT_PASSWORD_WRONG_MESSAGE = "That is not your current password.";

/**
 * Mails a reset link to an address with an account, and a notice that none uses it to one without: both paths make
 * one database round trip and send one email, so neither the answer nor its timing tells which addresses have
 * accounts.
 */
export async function requestLocalPasswordReset(email: string): Promise<SystemEmailDelivery> {
  const siteUrl = getConfig().siteUrl;
  const account = await findPersonByEmail(email);
  if (!account) {
    await dropExpiredPasswordResets();
    return sendSystemEmail({
      to: email,
      subject: "Resetting your Letterpress password",
      paragraphs: [
        "Someone, probably you, asked to reset the password of a Letterpress account with this address. No account uses this address, so nothing was changed.",
        "If you meant to create one, sign up. If this was not you, you can ignore this email.",
      ],
      link: { label: "Sign up", url: `${siteUrl}/signup` },
    });
  }
  const token = newLinkToken();
  await savePasswordReset({
    personId: account.id,
    tokenHash: digest(token),
    maxAgeSeconds: PASSWORD_RESET_MAX_AGE_SECONDS,
  });
  return sendSystemEmail({
    to: account.email,
    subject: "Reset your Letterpress password",
    paragraphs: [
      "Follow the link below within 1 hour to choose a new password for your Letterpress account. It works once, and signs you out on every browser.",
      "If you did not ask to reset your password, you can ignore this email: your password stays as it is.",
    ],
    link: { label: "Choose a new password", url: `${siteUrl}/auth/reset-password?token=${token}` },
  });
}

/** The address a reset link's page names, or null for an unknown, used or expired token; the token stays usable. */
export async function findLocalPasswordReset(token: string): Promise<{ email: string } | null> {
  return LINK_TOKEN.test(token) ? findPasswordReset(digest(token)) : null;
}

/**
 * Sets the new password from a reset link's page, once: the token is used up and every session of the account ends.
 * The account's email, or null for an unknown, used or expired token.
 */
export async function resetLocalPassword(token: string, password: string): Promise<{ email: string } | null> {
  if (!LINK_TOKEN.test(token)) return null;
  return takePasswordReset(digest(token), await hashPassword(password));
}

/** Checks the signed-in account's current password: a wrong one is a VALIDATION_ERROR on `currentPassword`. */
async function checkCurrentPassword(account: Person, currentPassword: string): Promise<void> {
  try {
    await authenticateLocalAccount({ email: account.email, password: currentPassword });
  } catch (error) {
    if (error instanceof AppError && error.code === "INVALID_CREDENTIALS") {
      throw new AppError("INVALID_CREDENTIALS", {
        message: CURRENT_PASSWORD_WRONG_MESSAGE,
        details: [{ field: "currentPassword", message: CURRENT_PASSWORD_WRONG_MESSAGE }],
      });
    }
    throw error;
  }
}

/** Settings' change of password: the current one is checked, and every other session of the account ends. */
export async function changeLocalPassword(
  account: Person,
  change: { currentPassword: string; password: string },
  keepSessionId: string | null,
): Promise<void> {
  await checkCurrentPassword(account, change.currentPassword);
  await setPersonPassword(account.id, await hashPassword(change.password), keepSessionId);
}

/**
 * Settings' change of email, after the current password: the new address is sent a link that makes the change, or,
 * when it has an account already, a notice saying so. The form's answer is the same either way, so it does not tell
 * the signed-in person whether someone else's address has an account; the address's owner, who does know, is told.
 */
export async function requestLocalEmailChange(
  account: Person,
  change: { email: string; currentPassword: string },
): Promise<SystemEmailDelivery> {
  if (change.email === account.email.toLowerCase()) {
    const message = "That is already your email.";
    throw new AppError("VALIDATION_ERROR", { message, details: [{ field: "email", message }] });
  }
  await checkCurrentPassword(account, change.currentPassword);
  const siteUrl = getConfig().siteUrl;
  if (await findPersonByEmail(change.email)) {
    return sendSystemEmail({
      to: change.email,
      subject: "A Letterpress account asked to use this address",
      paragraphs: [
        "Someone signed in to a Letterpress account asked to change its email to this address. This address already has an account, so nothing was changed.",
        "If this was you, use another address, or sign in to the account this address has. Otherwise you can ignore this email.",
      ],
      link: { label: "Sign in", url: `${siteUrl}/signin` },
    });
  }
  const token = newLinkToken();
  await saveEmailChange({
    personId: account.id,
    newEmail: change.email,
    tokenHash: digest(token),
    maxAgeSeconds: EMAIL_CHANGE_MAX_AGE_SECONDS,
  });
  return sendSystemEmail({
    to: change.email,
    subject: "Confirm your new Letterpress email",
    paragraphs: [
      "Someone, probably you, asked to change the sign-in email of a Letterpress account to this address. Follow the link below within 1 hour to confirm it. It works once.",
      "Until then the account keeps its current email. If this was not you, you can ignore this email.",
    ],
    link: { label: "Confirm the new email", url: `${siteUrl}/auth/confirm-email?token=${token}` },
  });
}

/** What an email change link's page names, or null for an unknown, used or expired token; the token stays usable. */
export async function findLocalEmailChange(token: string): Promise<{ email: string; newEmail: string } | null> {
  return LINK_TOKEN.test(token) ? findEmailChange(digest(token)) : null;
}

/** Makes an email change from its link's page, once, and tells the old address it was made. */
export async function confirmLocalEmailChange(token: string): Promise<EmailChangeTaken> {
  if (!LINK_TOKEN.test(token)) return { status: "invalid" };
  const taken = await takeEmailChange(digest(token));
  if (taken.status === "changed") {
    await sendSystemEmail({
      to: taken.oldEmail,
      subject: "Your Letterpress email was changed",
      paragraphs: [
        `The sign-in email of your Letterpress account was changed from this address to ${taken.newEmail}. Sign in with the new address from now on.`,
        "If you did not make this change, someone else may be signed in to your account: tell whoever runs this Letterpress server at once.",
      ],
      link: { label: "Sign in", url: `${getConfig().siteUrl}/signin` },
    });
  }
  return taken;
}
