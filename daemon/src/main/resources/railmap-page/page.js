// The topology page of railmapd: the picture the daemon draws (GET v1/topology.svg, the same as
// `railmap draw`), panned and zoomed with d3; the findings listed in it; the agreement state
// (GET v1/agreement); the running jobs, their verdicts and findings (GET v1/jobs), their cables named by a finding
// outlined in the picture; the matrix for the hosts typed (GET v1/matrix?format=json). Read-only.
// Every event of the stream (GET v1/events) refreshes all of it, at most four times a second: a job's finding
// raised or cleared is a finding-raised or finding-cleared event, a job starting or ending a record-changed one.
(function () {
  'use strict';

  const EVENT_TYPES = ['cable-added', 'cable-lost', 'port-up', 'port-down', 'member-joined', 'member-left',
    'record-changed', 'finding-raised', 'finding-cleared', 'agreement-reached', 'agreement-lost', 'missed'];
  const REFRESH_MS = 250;
  /** How many ranks and nodes a job's line names before it counts the rest (as railmap jobs does). */
  const SHOWN = 8;
  /** The longest name shown (a job id, a node); past it a name is cut and ends with an ellipsis. */
  const MAX_SHOWN_CHARS = 200;
  /** The longest finding sentence shown (a job's names its ranks, nodes, pids and cables). */
  const MAX_SENTENCE_CHARS = 2000;

  let transform = d3.zoomIdentity;
  const zoom = d3.zoom().scaleExtent([0.05, 40]).on('zoom', (event) => {
    transform = event.transform;
    d3.select('#picture g.viewport').attr('transform', transform);
  });

  /** @return the answer's JSON, or a rejection carrying the daemon's sentence ({"error": ...}) */
  async function getJson(url) {
    const response = await fetch(url, { cache: 'no-store' });
    const body = await response.text();
    let json;
    try {
      json = JSON.parse(body);
    } catch (e) {
      throw new Error(url + ' answered ' + response.status + ', not JSON');
    }
    if (!response.ok) {
      throw new Error(json && json.error ? json.error : url + ' answered ' + response.status);
    }
    return json;
  }

  /**
   * A string from the daemon as one safe line: control characters, line and bidirectional-override
   * characters written as \uXXXX, cut at max (MAX_SHOWN_CHARS by default). Every string reaches the page through
   * textContent (d3's text), never as HTML; this keeps a hostile job id or node name from
   * reordering or breaking the lines around it.
   */
  function shown(value, max = MAX_SHOWN_CHARS) {
    const text = String(value).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
      (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
    return text.length > max ? text.slice(0, max) + '…' : text;
  }

  /** The first SHOWN items, then how many more. */
  function firstFew(items) {
    return items.slice(0, SHOWN).join(',') + (items.length > SHOWN ? ' +' + (items.length - SHOWN) : '');
  }

  /** The running jobs of the last answer of v1/jobs: what the picture's highlighting reads. */
  let runningJobs = [];
  const hostsInput = document.getElementById('hosts');
  const typed = /^#hosts=(.*)$/.exec(location.hash);
  /** Whether the hosts field was filled once (or given in the address), after which only the user changes it. */
  let hostsFilled = typed !== null;
  /**
   * Whether the last picture has a cable joining two nodes directly: the matrix below is jaccl's, which runs
   * over such cables only, so a fabric of switches alone gets no hosts filled in and a note that says why.
   */
  let pointToPoint = true;
  const TYPE_HOSTS = 'type the hosts in rank order, separated by commas';
  const NO_POINT_TO_POINT = 'no cable joins two nodes directly: this matrix is jaccl\'s, for point-to-point cables '
    + '(the rails of a switched fabric are in the picture and railmap rails); type the hosts to see it anyway';

  async function jobs() {
    const note = d3.select('#jobs-note');
    try {
      const answer = await getJson('v1/jobs');
      runningJobs = answer.jobs;
      const left = answer.ranksLeftOut > 0
        ? '; ' + answer.ranksLeftOut + ' ranks (' + answer.jobsLeftOut + ' jobs) past the bounds are left out' : '';
      note.attr('class', null).text((answer.jobs.length ? answer.jobs.length + ' running, checked by the jaccl of MLX '
        + shown(answer.mlxVersion) : 'no running job: no record publishes a rank') + left);
    } catch (e) {
      runningJobs = [];
      note.attr('class', 'problem').text(e.message);
    }
    const header = ['job', 'ranks', 'nodes', 'verdict'];
    const rows = runningJobs.length ? [null].concat(runningJobs) : [];
    d3.select('#jobs').selectAll('tr').data(rows).join('tr')
      .attr('class', (job) => job ? 'job ' + job.verdict : null)
      .attr('data-job', (job) => job ? job.id : null)
      .attr('data-verdict', (job) => job ? job.verdict : null)
      .selectAll('td').data((job) => job ? [shown(job.id), firstFew(job.ranks.map((r) => r.rank === null ? '?' : String(r.rank))),
        firstFew(job.nodes.map((node) => shown(node))), job.verdict] : header).join('td')
      .text((cell) => cell);
    const findings = [];
    runningJobs.forEach((job) => job.findings.forEach((f) => findings.push({
      severity: f.severity, code: f.code, text: f.severity + ' ' + f.code + ': ' + shown(f.message, MAX_SENTENCE_CHARS)
    })));
    listFindings('#jobs-findings', findings, runningJobs.length ? 'no findings about the running jobs' : '');
  }

  /** Outlines the cables (and a rail diagram's NIC lines) an error or warning of a running job names (one end among its ports), its sentences as their tooltip. */
  function highlightJobs() {
    const named = new Map();
    runningJobs.forEach((job) => job.findings.filter((f) => f.severity !== 'info').forEach((f) => f.ports.forEach((port) => {
      named.set(port, (named.get(port) || []).concat(f.severity + ' ' + f.code + ': ' + shown(f.message, MAX_SENTENCE_CHARS)));
    })));
    // a cable names its two ends (data-cable); a NIC's line to its switch in a rail diagram, its port (data-port)
    document.querySelectorAll('#picture g.cable, #picture g.nic').forEach((cable) => {
      const ends = cable.classList.contains('nic') ? [cable.getAttribute('data-port') || ''] : (cable.getAttribute('data-cable') || '').split(' ');
      const sentences = ends.flatMap((end) => named.get(end) || []);
      cable.classList.toggle('job-finding', sentences.length > 0);
      if (sentences.length) {
        let title = cable.querySelector(':scope > title');
        if (!title) {
          title = document.createElementNS('http://www.w3.org/2000/svg', 'title');
          cable.insertBefore(title, cable.firstChild);
        }
        title.textContent = (title.textContent ? title.textContent + '\n' : '') + Array.from(new Set(sentences)).join('\n');
      }
    });
  }

  async function drawPicture() {
    const response = await fetch('v1/topology.svg', { cache: 'no-store' });
    const text = await response.text();
    if (!response.ok) {
      let sentence = 'the picture: ' + response.status;
      try { sentence = JSON.parse(text).error; } catch (e) { /* not JSON */ }
      throw new Error(sentence);
    }
    const parsed = new DOMParser().parseFromString(text, 'image/svg+xml');
    const svg = document.importNode(parsed.documentElement, true);
    if (svg.localName !== 'svg') {
      throw new Error('the picture is not SVG');
    }
    // everything drawn goes into one group that pan and zoom move; the viewBox keeps the whole picture in view
    const viewport = document.createElementNS('http://www.w3.org/2000/svg', 'g');
    viewport.setAttribute('class', 'viewport');
    Array.from(svg.childNodes).forEach((child) => {
      if (child.localName !== 'title') {
        viewport.appendChild(child);
      }
    });
    svg.appendChild(viewport);
    svg.removeAttribute('width');
    svg.removeAttribute('height');
    const holder = document.getElementById('picture');
    holder.replaceChildren(svg);
    d3.select(svg).call(zoom).call(zoom.transform, transform);

    const caption = svg.querySelector('text.caption');
    d3.select('#summary').text(caption ? caption.textContent.replace(/^railmap topology: /, '') : '');
    const cap = svg.querySelector('text.cap');
    d3.select('#findings-note').text(cap ? cap.textContent : '');
    const findings = Array.from(svg.querySelectorAll('text.finding')).map((t) => ({
      severity: t.getAttribute('data-severity'), code: t.getAttribute('data-code'), text: t.textContent
    }));
    listFindings('#findings', findings, 'no findings about the cables');
    pointToPoint = svg.querySelector('g.cable:not(.unconfirmed)') !== null;
    if (!hostsInput.value.trim()) {
      d3.select('#matrix-note').attr('class', null).text(pointToPoint ? TYPE_HOSTS : NO_POINT_TO_POINT);
    }
    if (!hostsFilled && pointToPoint) {
      hostsFilled = true;
      fillHosts(svg);
    }
  }

  /**
   * Fills the empty hosts field once, where a cable joins two nodes directly, so the matrix shows without
   * typing: every node with a record, in the ring order railmap matrix --order ring finds
   * (GET v1/matrix?order=ring), or in name order (the picture's) when no ring passes through them all. A
   * picture that leaves nodes out (over 256) fills nothing. What the user typed (or the #hosts= of the address) is never replaced.
   */
  async function fillHosts(svg) {
    const names = Array.from(svg.querySelectorAll('g.node:not(.unknown)'), (g) => g.getAttribute('data-node'));
    const drawn = svg.querySelectorAll('g.node').length;
    if (names.length === 0 || String(drawn) !== (svg.getAttribute('data-nodes') || String(drawn))) {
      return;
    }
    let order = names;
    try {
      order = (await getJson('v1/matrix?format=json&order=ring&hosts=' + encodeURIComponent(names.join(',')))).ranks;
    } catch (e) {
      // no ring through every node: name order
    }
    if (!hostsInput.value.trim()) {
      hostsInput.value = order.join(',');
      matrix();
    }
  }

  function listFindings(selector, findings, none) {
    const rows = findings.length ? findings : none ? [{ severity: 'none', text: none }] : [];
    d3.select(selector).selectAll('li').data(rows).join('li')
      .attr('class', (f) => f.severity)
      .attr('data-code', (f) => f.code || null)
      .text((f) => f.text);
  }

  async function agreement() {
    const out = d3.select('#agreement');
    try {
      const a = await getJson('v1/agreement');
      const differ = a.members.filter((m) => !m.agrees).map((m) => m.node || m.address);
      out.attr('class', a.agreed ? null : 'problem').text(a.agreed
        ? 'agreed: all ' + a.members.length + ' members hold the same ' + a.records + ' records (' + a.digest + ')'
        : 'not agreed: ' + differ.join(', ') + ' hold other records than this daemon (' + a.records + ' records, ' + a.digest + ')');
    } catch (e) {
      out.attr('class', 'problem').text(e.message);
    }
  }

  async function matrix() {
    const hosts = document.getElementById('hosts').value.trim();
    const note = d3.select('#matrix-note');
    if (!hosts) {
      note.attr('class', null).text(pointToPoint ? TYPE_HOSTS : NO_POINT_TO_POINT);
      d3.select('#matrix').selectAll('tr').remove();
      d3.select('#matrix-findings').selectAll('li').remove();
      return;
    }
    try {
      const plan = await getJson('v1/matrix?format=json&hosts=' + encodeURIComponent(hosts));
      note.attr('class', null).text((plan.mode ? 'jaccl runs the ' + plan.mode : 'jaccl cannot run it')
        + ', MLX ' + plan.mlxVersion + '; records ' + (plan.topology ? plan.topology.digest : ''));
      const ranks = plan.ranks;
      const rows = [[''].concat(ranks)].concat(ranks.map((r, i) => [i + ' ' + r].concat(plan.devices[i].map((cell) => cell || []))));
      d3.select('#matrix').selectAll('tr').data(rows).join('tr')
        .selectAll('td').data((row) => row).join('td')
        .attr('class', (cell) => Array.isArray(cell) && cell.length === 0 ? 'empty' : null)
        .text((cell) => Array.isArray(cell) ? (cell.length ? cell.join(', ') : '–') : cell);
      listFindings('#matrix-findings', plan.findings.filter((f) => f.severity !== 'info').map((f) => ({
        severity: f.severity, code: f.code, text: f.severity + ' ' + f.code + ': ' + f.message
      })), 'no findings about this matrix');
    } catch (e) {
      note.attr('class', 'problem').text(e.message);
      d3.select('#matrix').selectAll('tr').remove();
      d3.select('#matrix-findings').selectAll('li').remove();
    }
  }

  let timer = null;
  let running = false;
  let again = false;
  let refreshes = 0;

  /** Refreshes once, soon: events closer together than REFRESH_MS make one refresh. */
  function refreshSoon() {
    if (timer === null) {
      timer = setTimeout(() => {
        timer = null;
        refresh();
      }, REFRESH_MS);
    }
  }

  async function refresh() {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      await Promise.all([drawPicture().catch((e) => {
        d3.select('#findings-note').attr('class', 'problem').text(e.message);
      }), agreement(), jobs(), matrix()]);
      highlightJobs();
    } finally {
      running = false;
      document.body.setAttribute('data-refreshes', String(++refreshes));
      if (again) {
        again = false;
        refreshSoon();
      }
    }
  }

  function live(state, sentence) {
    d3.select('#live').attr('data-state', state).text(sentence);
  }

  function listen() {
    const events = new EventSource('v1/events');
    let dropped = false;
    events.onopen = () => {
      live('live', 'live: redrawn as the cables change');
      if (dropped) {
        dropped = false;
        refreshSoon();
      }
    };
    events.onmessage = refreshSoon;
    EVENT_TYPES.forEach((type) => events.addEventListener(type, refreshSoon));
    events.onerror = () => {
      if (events.readyState !== EventSource.CLOSED) {
        dropped = true;
        live('reconnecting', 'the event stream dropped: reconnecting…');
        return;
      }
      // the browser gave up (an answer other than a stream): ask once what the daemon says
      fetch('v1/events', { cache: 'no-store' }).then((response) => {
        if (response.body) {
          response.body.cancel();
        }
        live('off', response.status === 404
          ? 'live updates are off: this daemon serves no event stream (GET /v1/events is 404); reload to refresh'
          : 'live updates stopped (GET /v1/events answered ' + response.status + '); reload to retry');
      }, () => live('off', 'live updates stopped: the daemon cannot be reached; reload to retry'));
    };
  }

  try {
    hostsInput.value = typed ? decodeURIComponent(typed[1]) : '';
  } catch (e) {
    hostsInput.value = '';
  }
  document.getElementById('matrix-form').addEventListener('submit', (event) => {
    event.preventDefault();
    history.replaceState(null, '', hostsInput.value.trim() ? '#hosts=' + encodeURIComponent(hostsInput.value.trim()) : '#');
    matrix();
  });

  refresh();
  listen();
}());
