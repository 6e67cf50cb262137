import * as React from "react";
import PasswordReset, { type PasswordResetProps } from "../../password-reset";

/** The password-reset email in de, for React Email's preview server (npm run email). */
export default function PasswordResetDe(props: PasswordResetProps) {
  return <PasswordReset {...props} />;
}

PasswordResetDe.PreviewProps = {
  ...PasswordReset.PreviewProps,
  locale: "de",
  userName: "Lena",
  requestedFrom: "Firefox unter Windows, München",
  companyAddress: "Acme GmbH, Unter den Linden 21, 10117 Berlin",
} satisfies PasswordResetProps;
