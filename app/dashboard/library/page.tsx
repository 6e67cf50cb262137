import type { Metadata } from "next";
import Link from "next/link";
import { requireAccount } from "@/lib/auth/current";
import { listLibraryPage } from "@/lib/catalogue/library";
import { libraryAllowance } from "@/lib/dashboard/queries";
import { formatDate, formatDateTime } from "../../_components/format";
import { LibraryIcon, PlusIcon } from "../../_components/icons";
import { LibraryGrid } from "./library-grid";
import { PageHeader } from "../_components/page-header";

export const metadata: Metadata = { title: "Library" };

const PAGE_SIZE = 100;

export default async function LibraryPage({
  searchParams,
}: {
  searchParams: Promise<{
    page?: string;
    deleted?: string | string[];
    removed?: string | string[];
    send?: string | string[];
  }>;
}) {
  const account = await requireAccount("/dashboard/library");
  const query = await searchParams;
  const page = Math.max(1, Number(query.page) || 1);
  // Where the template page's Delete or Remove from library lands. Only a flag: a name taken from the address would let
  // anyone's link put their words in this page's notice.
  const deleted = query.deleted === "1";
  const removed = query.removed === "1";
  // Emails' "Send a test" lands here: a test is sent from a template's page.
  const sendingTest = query.send === "test";
  // The same query GET /api/v1/library answers with, newest addition first.
  const [{ templates, pagination }, allowance] = await Promise.all([
    listLibraryPage(account.id, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE }),
    libraryAllowance(account.id, account.plan),
  ]);
  const { total } = pagination;

  return (
    <>
      <PageHeader
        title="Library"
        intro={
          <>
            The templates your API key can render and send.{" "}
            {allowance.libraryLimit !== null && (
              <>
                {allowance.librarySize} of {allowance.libraryLimit} slots used on the free plan.
              </>
            )}
          </>
        }
        actions={
          <div className="row">
            <Link href="/dashboard/templates/new" className="btn btn-secondary">
              <PlusIcon size={16} /> New template
            </Link>
            <Link href="/dashboard/catalogue" className="btn btn-primary">
              Browse catalogue
            </Link>
          </div>
        }
      />

      {deleted && (
        <div className="alert alert-success" role="status" style={{ marginBottom: 20 }}>
          <p>The template is deleted. Emails already sent with it stay in Emails.</p>
        </div>
      )}
      {removed && (
        <div className="alert alert-success" role="status" style={{ marginBottom: 20 }}>
          <p>The template is out of your library. You can add it back from the catalogue any time.</p>
        </div>
      )}

      {sendingTest && (
        <div className="alert alert-info" role="status" style={{ marginBottom: 20 }} data-testid="send-test-hint">
          <p>
            {total === 0
              ? "To send a test email, add a template first: "
              : "To send a test email, open a template below: "}
            its page has a Send a test email form, with its variables to fill in. Test emails stay in your outbox and
            reach no inbox.
          </p>
        </div>
      )}

      {total === 0 ? (
        <div className="card empty-state">
          <div className="empty-icon">
            <LibraryIcon size={22} />
          </div>
          <h2>Your library is empty</h2>
          <p>Add a free template from the catalogue, buy a premium one, or write your own in TSX.</p>
          <div className="row" style={{ justifyContent: "center" }}>
            <Link href="/dashboard/catalogue" className="btn btn-primary">
              Browse catalogue
            </Link>
            <Link href="/dashboard/templates/new" className="btn btn-secondary">
              Write a template
            </Link>
          </div>
        </div>
      ) : (
        <>
          <LibraryGrid
            cards={templates.map((template) => ({
              id: template.id,
              name: template.name,
              description: template.description,
              category: template.category,
              author: template.author,
              added_via: template.added_via,
              updated: formatDate(template.updated_at),
              updatedTitle: formatDateTime(template.updated_at),
              preview_url: template.preview_url,
            }))}
          />
          {total > PAGE_SIZE && (
            <nav className="row" aria-label="Library pages" style={{ justifyContent: "center", marginTop: 20 }}>
              {page > 1 && (
                <Link className="btn btn-secondary btn-sm" href={`/dashboard/library?page=${page - 1}`}>
                  Previous
                </Link>
              )}
              <span className="muted small">
                Page {page} of {Math.ceil(total / PAGE_SIZE)}
              </span>
              {page * PAGE_SIZE < total && (
                <Link className="btn btn-secondary btn-sm" href={`/dashboard/library?page=${page + 1}`}>
                  Next
                </Link>
              )}
            </nav>
          )}
        </>
      )}
    </>
  );
}
