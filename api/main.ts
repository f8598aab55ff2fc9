// `npm start` / older scripts: the entry now lives in runtime/ (one per role, chosen by ROLE).
import '../runtime/main.js';
