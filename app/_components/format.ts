import type { ApiKeyKind, ApiKeyScope } from "@/lib/api-keys/service";

// Dates render on the server, so they are shown in UTC and labelled as such (no hydration mismatch, no guessing).

const dateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const dateOnly = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });

export function formatDateTime(value: Date | string | null | undefined): string {
  if (!value) return "—";
  return `${dateTime.format(new Date(value))} UTC`;
}

export function formatDate(value: Date | string | null | undefined): string {
  if (!value) return "—";
  return dateOnly.format(new Date(value));
}

export function timeAgo(value: Date | string | null | undefined, now = Date.now()): string {
  if (!value) return "Never";
  const seconds = Math.round((now - new Date(value).getTime()) / 1000);
  if (seconds < 45) return "Just now";
  const units: [number, string][] = [
    [60, "minute"],
    [3600, "hour"],
    [86400, "day"],
    [2592000, "month"],
    [31536000, "year"],
  ];
  let chosen: [number, string] = units[0];
  for (const unit of units) if (Math.abs(seconds) >= unit[0]) chosen = unit;
  const amount = Math.round(seconds / chosen[0]);
  return `${amount} ${chosen[1]}${amount === 1 ? "" : "s"} ago`;
}

/** An API word as a label: `delivery_delayed` → "Delivery delayed". */
export function formatWord(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1).replaceAll("_", " ");
}

export function formatPrice(price: number | string): string {
  const value = Number(price);
  return value === 0 ? "Free" : `$${value.toFixed(2)}`;
}

export function formatNumber(value: number): string {
  return value.toLocaleString("en-US");
}

/** A rate from 0 to 1 as a percentage with up to two decimals: 0.0123 → "1.23%". */
export function formatRate(rate: number): string {
  return `${(rate * 100).toLocaleString("en-US", { maximumFractionDigits: 2 })}%`;
}

export const ADDED_VIA_LABEL: Record<string, string> = {
  created: "Created by you",
  free: "Added free",
  purchased: "Purchased",
};

export const PLAN_LABEL: Record<string, string> = { free: "Free", monthly: "Monthly", annual: "Annual" };

export const API_KEY_KIND_LABEL: Record<ApiKeyKind, string> = { live: "Live", test: "Test" };

export const API_KEY_SCOPE_LABEL: Record<ApiKeyScope, string> = {
  full_access: "Full access",
  sending_access: "Sending access",
};
