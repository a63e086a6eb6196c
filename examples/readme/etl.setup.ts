// Writes the raw files the ETL snippet reads: orders with dates and untidy text, and customers.
import { writeFileSync } from "node:fs";

writeFileSync(
  "orders.csv",
  [
    "order_id,customer_id,ordered_at,status,amount",
    "1,10,2026-01-03, shipped ,120.50",
    "2,11,2026-01-17,SHIPPED,80",
    "3,10,2026-02-02,cancelled,45",
    "4,12,2026-02-14,shipped,",
    "5,11,2026-02-20, Shipped,300.25",
    "6,13,2026-03-01,shipped,15",
    "7,10,2026-03-09,returned,60",
    "8,12,2026-03-30,shipped,99.99",
    "9,10,2026-01-25,shipped,10",
    "10,11,2026-03-15,shipped,42",
  ].join("\n") + "\n",
);
writeFileSync(
  "customers.csv",
  "customer_id,name,country\n10,Ada,UK\n11,Grace,US\n12,Linus,FI\n",
);
