import { afterEach, describe, expect, it, vi } from "vitest";
import { sendSystemEmail } from "@/lib/mail-transport/system";

// With no email provider (the embedded default), a system email is written to the server log: once as a JSON line
// for log tools, and its link once more on a line of its own, readable in the terminal running the app.

afterEach(() => vi.restoreAllMocks());

describe("a system email with no email provider", () => {
  it("is logged as JSON, then as one readable line with its link", async () => {
    const info = vi.spyOn(console, "info").mockImplementation(() => {});
    const delivery = await sendSystemEmail({
      to: "a@example.com",
      subject: "Finish signing up to Letterpress",
      paragraphs: ["Follow the link below."],
      link: { label: "Finish signing up", url: "http://localhost:3000/auth/confirm?token=abc" },
    });
    expect(delivery).toBe("server_log");
    expect(info.mock.calls).toEqual([
      [
        JSON.stringify({
          level: "info",
          message: "sign-up email (no email provider configured)",
          to: "a@example.com",
          subject: "Finish signing up to Letterpress",
          text: "Follow the link below.\n\nFinish signing up: http://localhost:3000/auth/confirm?token=abc",
        }),
      ],
      ["Finish signing up to Letterpress, for a@example.com: http://localhost:3000/auth/confirm?token=abc"],
    ]);
  });
});
