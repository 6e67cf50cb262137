import * as React from "react";
import OrderShipped, { type OrderShippedProps } from "../../order-shipped";

/** The order-shipped email in es, for React Email's preview server (npm run email). */
export default function OrderShippedEs(props: OrderShippedProps) {
  return <OrderShipped {...props} />;
}

OrderShippedEs.PreviewProps = {
  ...OrderShipped.PreviewProps,
  locale: "es",
  customerName: "Lucía",
  estimatedDelivery: "",
  estimatedDeliveryDate: "2025-03-06",
  shippingAddress: "Calle de Alcalá 42, 28014 Madrid, España",
  companyAddress: "Acme S.L., Paseo de la Castellana 89, 28046 Madrid",
} satisfies OrderShippedProps;
