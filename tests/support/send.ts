import { expect } from "vitest";
import { POST as send } from "@/app/api/v1/send/route";
import { auth, call, type Sender } from "./api";

/** Sends the welcome template from `user` to ann@example.com (`extra` in place of any of that): the email's id. */
export async function sentEmailId(user: Sender, extra: Record<string, unknown> = {}): Promise<string> {
  const result = await call(send, "/api/v1/send", {
    method: "POST",
    headers: auth(user),
    body: { template_id: user.welcomeId, to: "ann@example.com", subject: "Welcome aboard", ...extra },
  });
  expect(result.status).toBe(200);
  return result.body.data.id;
}
