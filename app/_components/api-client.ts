// The dashboard's browser calls to /api/v1 (callApi): same-origin fetches that authenticate with the session cookie,
// exactly as an API key would (same account, same metering); and to its own routes under /api/dashboard
// (callDashboard), which answer alike but are not API calls (the template page's previews).

export type ApiFailure = {
  status: number;
  error: string;
  message?: string;
  details?: { field: string; message: string }[];
};
export type ApiResult<T> = { ok: true; data: T } | { ok: false; failure: ApiFailure };

type CallInit = { method?: string; body?: unknown; headers?: Record<string, string> };

export function callApi<T>(path: string, init: CallInit = {}): Promise<ApiResult<T>> {
  return call<T>(`/api/v1${path}`, init);
}

export function callDashboard<T>(path: string, init: CallInit = {}): Promise<ApiResult<T>> {
  return call<T>(`/api/dashboard${path}`, init);
}

async function call<T>(url: string, init: CallInit): Promise<ApiResult<T>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? "GET",
      credentials: "same-origin",
      headers: { ...(init.body !== undefined ? { "content-type": "application/json" } : {}), ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  } catch {
    return {
      ok: false,
      failure: {
        status: 0,
        error: "Network error",
        message: "Could not reach the server. Check your connection and try again.",
      },
    };
  }
  const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (response.ok && body) return { ok: true, data: body as T };
  // The session expired: nothing on this page can work until the user signs in again, so take them there (and back).
  if (response.status === 401) {
    // A plain function outside any component has no router to push with.
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination
    window.location.assign(`/signin?next=${encodeURIComponent(window.location.pathname + window.location.search)}`);
  }
  return {
    ok: false,
    failure: {
      status: response.status,
      error: typeof body?.error === "string" ? body.error : `Request failed (${response.status})`,
      message: typeof body?.message === "string" ? body.message : undefined,
      details: Array.isArray(body?.details) ? (body.details as ApiFailure["details"]) : undefined,
    },
  };
}

/** One readable sentence (plus field details) for an API failure. */
export function describeFailure(failure: ApiFailure): string {
  if (failure.status === 401) return "Your session has expired. Taking you to sign in…";
  const lines = [failure.message ?? failure.error];
  for (const detail of failure.details ?? []) lines.push(`• ${detail.field}: ${detail.message}`);
  return lines.join("\n");
}

export function downloadFile(filename: string, content: BlobPart, type = "text/plain") {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}
