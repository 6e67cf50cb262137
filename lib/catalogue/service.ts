import "server-only";
import { findCatalogueTemplate } from "@/lib/catalogue/data/catalogue";
import {
  addLibraryEntry,
  assertLibraryHasRoom,
  assertPurchaseAllowed,
  lockAccountPlan,
} from "@/lib/catalogue/data/library";

// What billing and templates use of the library inside their own transactions (its limits, the entry a payment adds),
// passed through. Apart from library.ts, which calls billing's payment processor: billing imports this file, not that
// one, so the two domains do not import each other.
export { addLibraryEntry, assertLibraryHasRoom, assertPurchaseAllowed, findCatalogueTemplate, lockAccountPlan };
export type { AddedEntry } from "@/lib/catalogue/data/library";
