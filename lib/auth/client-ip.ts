// The client's address, for limits kept per IP. On Vercel the edge overwrites X-Forwarded-For with the address it
// saw, so its first entry is the client. Elsewhere only the last entry is used: the hop nearest this server wrote it
// (Next itself fills the header from the socket when a request arrives without one, and a reverse proxy appends the
// address it saw); a client talking to `next start` directly can choose it, so limits per IP must never be the only
// limit.

const MAX_ADDRESS_LENGTH = 64;

export function clientIp(headers: Headers, onVercel: boolean): string | null {
  const forwarded = headers.get("x-forwarded-for");
  if (!forwarded) return null;
  const hop = onVercel ? forwarded.split(",", 1)[0] : forwarded.slice(forwarded.lastIndexOf(",") + 1);
  const address = hop.trim().toLowerCase();
  return address && address.length <= MAX_ADDRESS_LENGTH ? address : null;
}
