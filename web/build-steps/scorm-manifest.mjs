// imsmanifest.xml for a SCORM package of the lab: one organization with one
// item, launching one SCO (the lab's page), whose resource lists every file
// of the package. SCORM 1.2 (ADL SCORM 1.2 CAM: IMS Content Packaging 1.1.2
// and adlcp_rootv1p2) or SCORM 2004 4th edition (IMS CP 1.1.4, adlcp_v1p3,
// with the mastery threshold as the primary objective's minimum normalized
// measure, which the LMS hands the SCO as cmi.scaled_passing_score).
// The schema files (.xsd) are not shipped: the manifests name no
// schemaLocation, and the LMSs the lab targets read them without.

export const VERSIONS = Object.freeze(['1.2', '2004']);

const escapeXml = (text) => String(text)
  .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

// identifier: an XML ID (a letter, then letters, digits, '-', '_', '.'),
// unique to the package in an LMS; title: the course's name for it; launch:
// the SCO's page; files: every file of the package but the manifest;
// mastery: the share of exercises right that passes, in [0, 1].
export function scormManifest(version, { identifier, title, launch, files, mastery }) {
  if (!(typeof mastery === 'number' && mastery >= 0 && mastery <= 1)) throw new Error(`${mastery}: a mastery threshold is a share in [0, 1]`);
  if (!/^[A-Za-z][\w.-]*$/.test(identifier)) throw new Error(`${identifier}: not an XML identifier`);
  if (!files.includes(launch)) throw new Error(`${launch}: the launch page is not among the package's files`);
  const fileList = files.map((file) => `      <file href="${escapeXml(file)}"/>`).join('\n');
  const name = escapeXml(title);
  if (version === '1.2') {
    return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="${identifier}" version="1.0"
          xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
          xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="${identifier}-organization">
    <organization identifier="${identifier}-organization">
      <title>${name}</title>
      <item identifier="${identifier}-item" identifierref="${identifier}-sco" isvisible="true">
        <title>${name}</title>
        <adlcp:masteryscore>${Math.round(mastery * 10000) / 100}</adlcp:masteryscore>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="${identifier}-sco" type="webcontent" adlcp:scormtype="sco" href="${escapeXml(launch)}">
${fileList}
    </resource>
  </resources>
</manifest>
`;
  }
  if (version === '2004') {
    return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="${identifier}" version="1.0"
          xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"
          xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"
          xmlns:adlseq="http://www.adlnet.org/xsd/adlseq_v1p3"
          xmlns:adlnav="http://www.adlnet.org/xsd/adlnav_v1p3"
          xmlns:imsss="http://www.imsglobal.org/xsd/imsss">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>2004 4th Edition</schemaversion>
  </metadata>
  <organizations default="${identifier}-organization">
    <organization identifier="${identifier}-organization">
      <title>${name}</title>
      <item identifier="${identifier}-item" identifierref="${identifier}-sco" isvisible="true">
        <title>${name}</title>
        <imsss:sequencing>
          <imsss:objectives>
            <imsss:primaryObjective objectiveID="${identifier}-exercises" satisfiedByMeasure="true">
              <imsss:minNormalizedMeasure>${Math.round(mastery * 10000) / 10000}</imsss:minNormalizedMeasure>
            </imsss:primaryObjective>
          </imsss:objectives>
        </imsss:sequencing>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="${identifier}-sco" type="webcontent" adlcp:scormType="sco" href="${escapeXml(launch)}">
${fileList}
    </resource>
  </resources>
</manifest>
`;
  }
  throw new Error(`${version}: a SCORM version is one of ${VERSIONS.join(', ')}`);
}
