import { getDb } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { seedCatalogue } from "@/lib/catalogue/data/seed";
import { connectDatabase } from "./database";

// npm run db:migrate | npm run db:seed — on DATABASE_URL (else POSTGRES_URL), or the embedded database when neither is set.
const command = process.argv[2];
const log = (line: string) => console.error(line);

const connection = await connectDatabase({ log });
try {
  const { applied, alreadyApplied } = await migrate(getDb());
  if (command === "migrate") {
    console.log(JSON.stringify({ database: connection.source, applied, already_applied: alreadyApplied }));
  } else if (command === "seed") {
    const seeded = await seedCatalogue();
    console.log(JSON.stringify({ database: connection.source, applied, seeded }));
  } else {
    throw new Error(`Unknown command "${command}": use migrate or seed`);
  }
} catch (error) {
  console.error(`Error: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await connection.close();
}
