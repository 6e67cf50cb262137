import { describe, expect, it } from "vitest";
import { safeNextPath } from "@/lib/auth/next-path";

// `next` after sign-in and on the Supabase confirmation callback: only a path on the app's own origin survives.

const APP = "https://app.letterpress.example";

const hostile: [string, unknown][] = [
  ["protocol-relative", "//evil.example/x"],
  ["protocol-relative with a backslash", "/\\evil.example/x"],
  ["two backslashes", "\\\\evil.example/x"],
  ["a dot segment before the second slash", "/.//evil.example/x"],
  ["a parent segment before the second slash", "/..//evil.example/x"],
  ["parent segments that climb past the root", "/dashboard/../..//evil.example/x"],
  ["encoded dot segments", "/%2e%2e//evil.example/x"],
  ["mixed-case encoded dot segments", "/dashboard/%2E/%2e%2E//evil.example"],
  ["encoded slashes", "/%2F%2Fevil.example/x"],
  ["lower-case encoded slashes", "/%2f%2fevil.example"],
  ["an encoded backslash", "/%5Cevil.example"],
  ["an encoded slash and backslash", "/%2F%5Cevil.example"],
  ["a leading tab", "\t//evil.example/x"],
  ["a tab inside the slashes", "/\t/evil.example/x"],
  ["a newline inside the slashes", "/\n/evil.example/x"],
  ["a leading space", " //evil.example"],
  ["an encoded tab inside the slashes", "/%09/evil.example"],
  ["a NUL", "/dashboard\u0000"],
  ["a C1 control character", "/dashboard\u0085"],
  ["an absolute https URL", "https://evil.example/x"],
  ["an absolute URL on the app's host over http", "http://app.letterpress.example/dashboard"],
  ["the app's host with another port", "https://app.letterpress.example:8443/dashboard"],
  ["a look-alike host", "https://app.letterpress.example.evil.example/"],
  ["userinfo before another host", "https://app.letterpress.example@evil.example/"],
  ["a javascript: URL", "javascript:alert(1)"],
  ["a data: URL", "data:text/html,<script>alert(1)</script>"],
  ["a malformed percent-escape", "/dashboard/%E0%A4%A"],
  ["an overlong value", `/dashboard/${"a".repeat(3000)}`],
  ["an empty string", ""],
  ["a number", 42],
  ["an array (a repeated query parameter)", ["/dashboard/library", "//evil.example"]],
  ["undefined", undefined],
];

const good: [string, string, string][] = [
  ["the dashboard", "/dashboard", "/dashboard"],
  ["a nested page with its query", "/dashboard/library?page=2", "/dashboard/library?page=2"],
  ["a path with a hash", "/docs#sendEmail", "/docs#sendEmail"],
  [
    "an encoded query holding a URL",
    "/dashboard/library?q=%2F%2Fevil.example",
    "/dashboard/library?q=%2F%2Fevil.example",
  ],
  ["a dot segment that stays on the origin", "/dashboard/./library", "/dashboard/library"],
  ["a parent segment that stays on the origin", "/dashboard/settings/../library", "/dashboard/library"],
  ["a relative path", "dashboard/usage", "/dashboard/usage"],
  [
    "an absolute URL on the app's origin",
    "https://app.letterpress.example/dashboard/billing?plan=annual",
    "/dashboard/billing?plan=annual",
  ],
  ["an encoded space", "/dashboard/templates/my%20template", "/dashboard/templates/my%20template"],
];

describe("safeNextPath", () => {
  it.each(hostile)("refuses %s", (_, value) => {
    expect(safeNextPath(value, APP)).toBe("/dashboard");
    expect(safeNextPath(value, APP, "/signin")).toBe("/signin");
  });

  it.each(good)("keeps %s", (_, value, expected) => {
    expect(safeNextPath(value, APP)).toBe(expected);
  });

  it("never answers anything a browser resolves to another origin", () => {
    for (const [, value] of hostile) {
      const path = safeNextPath(value, APP);
      expect(new URL(path, APP).origin).toBe(APP);
      expect(path.startsWith("/") && !path.startsWith("//")).toBe(true);
    }
  });

  it("compares with the origin of the URL it is given, whatever its path", () => {
    expect(safeNextPath("https://app.letterpress.example/dashboard", `${APP}/some/base/`)).toBe("/dashboard");
    expect(safeNextPath("usage", `${APP}/some/base/`)).toBe("/usage");
    expect(safeNextPath("/dashboard", "http://localhost:3000")).toBe("/dashboard");
  });
});
