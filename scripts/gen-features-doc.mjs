// Regenerates docs/features.md from the feature registry (run after `npm run build`).
import { writeFileSync } from 'node:fs';
const { featuresDoc } = await import('../dist/render/features/doc.js');
writeFileSync('docs/features.md', featuresDoc());
