import * as React from "react";
import PasswordReset, { type PasswordResetProps } from "../../password-reset";

/** The password-reset email in es, for React Email's preview server (npm run email). */
export default function PasswordResetEs(props: PasswordResetProps) {
  return <PasswordReset {...props} />;
}

PasswordResetEs.PreviewProps = {
  ...PasswordReset.PreviewProps,
  locale: "es",
  userName: "Lucía",
  requestedFrom: "Firefox en Windows, Sevilla",
  companyAddress: "Acme S.L., Paseo de la Castellana 89, 28046 Madrid",
} satisfies PasswordResetProps;
