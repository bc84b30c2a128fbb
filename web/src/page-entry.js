// The page's script (app.js): the lab with every section, its answers in
// localStorage. A SCORM package's page starts it its own way (scorm/launch.js).
import { start } from './main.js';

start();
