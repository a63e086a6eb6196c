// Writes the two CSV files the lazy snippet scans (trips-1.csv, trips-2.csv).
import { writeFileSync } from "node:fs";

writeFileSync("trips-1.csv", "city,fare\nNYC,12.5\nSF,8\nNYC,-1\nLA,30\n");
writeFileSync("trips-2.csv", "city,fare\nSF,19.5\nNYC,41\nLA,7.25\n");
