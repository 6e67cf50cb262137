import { listAuditLog } from "@/lib/api/contract/audit-log";
import { listCatalogue } from "@/lib/api/contract/catalogue";
import {
  createComponent,
  deleteComponent,
  getComponent,
  listComponents,
  updateComponent,
} from "@/lib/api/contract/components";
import type { Operation } from "@/lib/api/contract/define";
import {
  createDomain,
  deleteDomain,
  getDomain,
  listDomains,
  updateDomain,
  verifyDomain,
} from "@/lib/api/contract/domains";
import { cancelEmail, getEmail, listEmails } from "@/lib/api/contract/emails";
import { addToLibrary, listLibrary, removeFromLibrary } from "@/lib/api/contract/library";
import { getMetrics } from "@/lib/api/contract/metrics";
import { sendBatch, sendEmail } from "@/lib/api/contract/send";
import { deleteSuppression, listSuppressions } from "@/lib/api/contract/suppressions";
import {
  createTemplate,
  deleteTemplate,
  getTemplate,
  getTemplateSource,
  renderTemplate,
  replaceTemplate,
  setTemplateAlias,
} from "@/lib/api/contract/templates";
import {
  getTemplateVersion,
  listTemplateVersions,
  publishTemplate,
  restoreTemplateVersion,
} from "@/lib/api/contract/template-versions";
import { getTeam } from "@/lib/api/contract/team";
import { getUsage } from "@/lib/api/contract/usage";
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhookDeliveries,
  listWebhooks,
  replayWebhookDelivery,
  rotateWebhookSecret,
  testWebhook,
  updateWebhook,
} from "@/lib/api/contract/webhooks";

/** Every operation of /api/v1 by its operationId, in the order the document and /docs list them. */
export const contract = {
  listLibrary,
  addToLibrary,
  removeFromLibrary,
  listCatalogue,
  createTemplate,
  getTemplate,
  replaceTemplate,
  setTemplateAlias,
  deleteTemplate,
  renderTemplate,
  getTemplateSource,
  publishTemplate,
  listTemplateVersions,
  getTemplateVersion,
  restoreTemplateVersion,
  createComponent,
  listComponents,
  getComponent,
  updateComponent,
  deleteComponent,
  sendEmail,
  sendBatch,
  listEmails,
  getEmail,
  cancelEmail,
  listSuppressions,
  deleteSuppression,
  getUsage,
  getMetrics,
  getTeam,
  listDomains,
  createDomain,
  getDomain,
  verifyDomain,
  updateDomain,
  deleteDomain,
  createWebhook,
  listWebhooks,
  getWebhook,
  updateWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  replayWebhookDelivery,
  testWebhook,
  rotateWebhookSecret,
  listAuditLog,
};

export const API_OPERATIONS: Operation[] = Object.values(contract);
