// Writes the data of the "coming from pandas / Polars" tasks: trips.csv and cities.csv.
import { writeFileSync } from "node:fs";

const trips = [
  "trip_id,city,vendor,pickup_at,fare,tip,note",
  "1,NYC,acme,2026-03-01 08:15:00,12.5,2,airport run",
  "2,SF,zoom,2026-03-01 09:40:00,8,,",
  "3,NYC,zoom,2026-03-01 12:05:00,41,6.5,late night to JFK",
  "4,LA,acme,2026-03-02 07:30:00,30,3,",
  "5,SF,acme,2026-03-02 18:20:00,19.5,1,booked via app",
  "6,NYC,acme,2026-03-02 22:45:00,7.25,,",
  "7,LA,zoom,2026-03-03 11:10:00,55,10,LAX terminal 4",
  "8,NYC,zoom,2026-03-03 16:00:00,12.5,1.5,",
];
writeFileSync("trips.csv", trips.join("\n") + "\n");
writeFileSync("cities.csv", "city,country,population\nNYC,US,8336817\nSF,US,808437\nLA,US,3820914\nBER,DE,3755251\n");
