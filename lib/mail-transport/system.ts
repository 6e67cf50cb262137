import "server-only";
import { randomUUID } from "node:crypto";
import { getConfig } from "@/lib/core/config";
import { getMailer } from "@/lib/mail-transport";

// The app's own emails to its users (local sign-up links), not users' sends: nothing is recorded or metered. With
// Resend configured they go from SYSTEM_EMAIL_FROM; without a provider (the embedded default) the whole message is
// written to the server log, so `npm run dev` shows the link in the terminal and nothing is silently dropped.

export type SystemEmail = { to: string; subject: string; paragraphs: string[]; link: { label: string; url: string } };

/** Where a system email went: to the address's inbox (through Resend), or to the server log (no provider). */
export type SystemEmailDelivery = "inbox" | "server_log";

export async function sendSystemEmail(email: SystemEmail): Promise<SystemEmailDelivery> {
  const config = getConfig();
  const text = [...email.paragraphs, `${email.link.label}: ${email.link.url}`].join("\n\n");
  if (!config.resend) {
    console.info(
      JSON.stringify({
        level: "info",
        message: "sign-up email (no email provider configured)",
        to: email.to,
        subject: email.subject,
        text,
      }),
    );
    // The JSON line is for log tools; the link on a line of its own is what a person in the terminal looks for.
    console.info(`${email.subject}, for ${email.to}: ${email.link.url}`);
    return "server_log";
  }
  if (!config.systemEmailFrom)
    throw new Error("SYSTEM_EMAIL_FROM is not set (lib/core/config.ts requires it with Resend)");
  await getMailer().send({
    // A system email has no sent_emails record: the id only names this hand-off.
    id: randomUUID(),
    from: config.systemEmailFrom,
    to: [email.to],
    cc: [],
    bcc: [],
    replyTo: [],
    subject: email.subject,
    html: toHtml(email),
    text,
    headers: {},
    attachments: [],
    tags: [],
    scheduledAt: null,
  });
  return "inbox";
}

function toHtml(email: SystemEmail): string {
  const paragraphs = email.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join("");
  return `${paragraphs}<p><a href="${escapeHtml(email.link.url)}">${escapeHtml(email.link.label)}</a></p>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
