import * as React from "react";
import PasswordReset, { type PasswordResetProps } from "../../password-reset";

/** The password-reset email in fr, for React Email's preview server (npm run email). */
export default function PasswordResetFr(props: PasswordResetProps) {
  return <PasswordReset {...props} />;
}

PasswordResetFr.PreviewProps = {
  ...PasswordReset.PreviewProps,
  locale: "fr",
  userName: "Camille",
  requestedFrom: "Firefox sous Windows, Lyon",
  companyAddress: "Acme SAS, 8 rue de la Paix, 75002 Paris",
} satisfies PasswordResetProps;
