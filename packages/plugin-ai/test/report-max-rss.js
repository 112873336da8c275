// Preloaded with `node -r` by tests: writes the process's peak RSS (bytes) to the file named
// by AI_TEST_MAX_RSS_FILE when it exits, so a test can check the memory of a real `ai` run.
const fs = require('fs');
process.on('exit', () => {
  const file = process.env.AI_TEST_MAX_RSS_FILE;
  if (file) fs.writeFileSync(file, String(process.resourceUsage().maxRSS * 1024));
});
