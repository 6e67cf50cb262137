// Where tests/e2e/serve.ts serves the app: playwright.config.ts takes both from the line it prints once the app answers.
export const baseUrl = process.env.E2E_BASE_URL ?? "";
/** The app's output, with the sign-up emails it logs (no email provider is configured). */
export const appLogFile = process.env.E2E_APP_LOG ?? "";

export const url = (path: string) => `${baseUrl}${path}`;

/** The API's answer to a request without valid credentials. */
export const UNAUTHORIZED = { error: "Authentication required", code: "UNAUTHORIZED", success: false };
