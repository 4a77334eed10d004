// The TextMate grammar lives once, at editors/textmate/rules.tmLanguage.json (other editors
// read it too); a .vsix holds only its own folder, so the grammar is copied in before packaging.
const fs = require("fs");
const path = require("path");

const source = path.join(__dirname, "..", "..", "textmate", "rules.tmLanguage.json");
const target = path.join(__dirname, "..", "syntaxes", "rules.tmLanguage.json");
if (!fs.existsSync(source)) {
  console.error(`no grammar at ${source}: the extension would have no highlighting`);
  process.exit(1);
}
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.copyFileSync(source, target);
console.log(`copied ${source} -> ${target}`);
