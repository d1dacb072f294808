// A file of the web_assets test page.
const answer = 42;
