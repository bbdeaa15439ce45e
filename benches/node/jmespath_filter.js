// The guide's filter over the same generated issues as benches/jmespath.rs (same fields, same
// values), searched with the JavaScript reference library jmespath 0.16, for a same-machine
// comparison. Run from a directory where `npm install jmespath@0.16.0` was done, or with NODE_PATH
// pointing at its node_modules: `node benches/node/jmespath_filter.js`.
const jmespath = require('jmespath');
const FILTER = "{\"/issues\": json[?state == 'open'].{number: to_string(number), title: title}}";
function issues(n) {
  const names = ["bug", "enhancement", "documentation", "good first issue", "wontfix"];
  const items = [];
  for (let i = 0; i < n; i++) {
    const login = `user${i % 53}`;
    const userId = 1000 + i % 53;
    const labels = [];
    for (let l = 0; l < i % 4; l++) {
      const name = names[(i + l) % names.length];
      labels.push({ id: 208045946 + l, node_id: `MDU6TGFiZWwyMDgwNDU5NDY${l}`,
        url: `https://api.github.com/repos/acme/ui/labels/${name}`, name,
        description: `Issues labelled ${name}`, color: "d73a4a", default: l === 0 });
    }
    items.push({
      number: i + 1,
      title: `Renderer drops row ${i % 97} when the list scrolls fast`,
      state: i % 3 === 2 ? "closed" : "open",
      labels,
      user: { login, id: userId, node_id: `MDQ6VXNlcj${userId}`,
        avatar_url: `https://avatars.githubusercontent.com/u/${userId}?v=4`, gravatar_id: "",
        url: `https://api.github.com/users/${login}`, html_url: `https://github.com/${login}`,
        followers_url: `https://api.github.com/users/${login}/followers`,
        repos_url: `https://api.github.com/users/${login}/repos`, type: "User", site_admin: false },
      body: `### Steps to reproduce\n\n1. Open the list with ${100 + i % 900} rows.\n2. Scroll to row ${i % 50} quickly and release.\n\n### Expected\n\nThe row stays visible.\n\n### Actual\n\nThe row disappears until the next render; seen on build ${i * 7} with the default renderer and on build ${i * 7 + 1} with the compact one. Logs show no error. Happens on every scroll faster than about two screens a second.`,
    });
  }
  return { json: items };
}
for (const n of [1000, 10000]) {
  const data = issues(n);
  let sink = 0;
  const t0 = process.hrtime.bigint();
  while (process.hrtime.bigint() - t0 < 2_000_000_000n) sink += jmespath.search(data, FILTER)["/issues"].length;
  const times = [];
  for (let r = 0; r < 30; r++) {
    const reps = n === 1000 ? 200 : 20;
    const s = process.hrtime.bigint();
    for (let k = 0; k < reps; k++) sink += jmespath.search(data, FILTER)["/issues"].length;
    times.push(Number(process.hrtime.bigint() - s) / reps / 1000);
  }
  times.sort((a, b) => a - b);
  console.log(`n=${n} median ${times[15].toFixed(1)} µs min ${times[0].toFixed(1)} µs (${sink > 0})`);
}
