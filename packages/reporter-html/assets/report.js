// The results table of the HTML report. Rows are built with createElement and textContent only:
// whatever an agent wrote is shown as text and never parsed as markup.
(function () {
  'use strict';
  const PAGE_SIZE = 100;
  const data = JSON.parse(document.getElementById('report-data').textContent);
  const rows = data.rows;
  rows.forEach(function (row, index) {
    row.index = index;
  });

  const state = {
    status: '',
    query: '',
    sort: 0 /* 0 file order, -1 slowest first, 1 fastest first */,
    page: 0,
    open: new Set(),
  };
  let visible = rows;
  const tbody = document.getElementById('rows');
  const pageInfo = document.getElementById('page-info');
  const prev = document.getElementById('prev');
  const next = document.getElementById('next');

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function haystack(row) {
    if (row.haystack === undefined)
      row.haystack = [row.label, row.error || '', row.input, row.output || ''].join('\n').toLowerCase();
    return row.haystack;
  }

  function recompute() {
    const query = state.query.toLowerCase();
    visible = rows.filter(function (row) {
      return (!state.status || row.status === state.status) && (!query || haystack(row).indexOf(query) !== -1);
    });
    if (state.sort) {
      const sign = state.sort;
      visible = visible.slice().sort(function (a, b) {
        return sign * (a.duration_ms - b.duration_ms) || a.index - b.index;
      });
    }
    state.page = 0;
    render();
  }

  function render() {
    const pages = Math.max(1, Math.ceil(visible.length / PAGE_SIZE));
    if (state.page >= pages) state.page = pages - 1;
    const start = state.page * PAGE_SIZE;
    const slice = visible.slice(start, start + PAGE_SIZE);
    const fragment = document.createDocumentFragment();
    slice.forEach(function (row) {
      fragment.appendChild(caseRow(row));
      if (state.open.has(row.index)) fragment.appendChild(detailsRow(row));
    });
    tbody.replaceChildren(fragment);
    pageInfo.textContent = visible.length
      ? 'Showing ' +
        (start + 1) +
        '–' +
        (start + slice.length) +
        ' of ' +
        visible.length +
        (visible.length !== rows.length ? ' (filtered from ' + rows.length + ')' : '')
      : 'No case matches the filter';
    prev.disabled = state.page === 0;
    next.disabled = state.page >= pages - 1;
    document.getElementById('sort-mark').textContent = state.sort === -1 ? '▼' : state.sort === 1 ? '▲' : '';
  }

  function caseRow(row) {
    const tr = el('tr', 'case' + (state.open.has(row.index) ? ' open' : ''));
    tr.dataset.index = String(row.index);
    tr.appendChild(el('td', 'id', row.label));
    const status = el('td', 'status ' + row.status, row.status + (row.grade ? ' · ' + row.grade : ''));
    if (row.recent) status.appendChild(strip(row.recent, row.flaky));
    tr.appendChild(status);
    tr.appendChild(el('td', 'duration', row.duration));
    tr.appendChild(el('td', 'error', row.error || ''));
    return tr;
  }

  // The case's latest outcomes from the run history, oldest first, one small bar each; a flaky case says so.
  function strip(recent, flaky) {
    const box = el('span', 'strip');
    box.title = 'Recent outcomes, oldest first: ' + recent.join(', ');
    recent.forEach(function (outcome) {
      box.appendChild(el('span', 'o ' + outcome));
    });
    if (flaky) box.appendChild(el('span', 'flaky-badge', 'flaky'));
    return box;
  }

  function block(parent, title, text) {
    if (text === undefined || text === null || text === '') return;
    parent.appendChild(el('h4', '', title));
    parent.appendChild(el('pre', '', text));
  }

  function detailsRow(row) {
    const tr = el('tr', 'details');
    const td = el('td');
    td.colSpan = 4;
    const box = el('div', 'details');
    box.appendChild(el('div', 'muted', 'Source: ' + row.source));
    if (row.tags) box.appendChild(el('div', 'muted', 'Tags: ' + row.tags.join(', ')));
    block(box, 'Error', row.error);
    block(box, 'Input', row.input);
    block(box, 'Output', row.output);
    block(box, 'Expected', row.expected);
    if (row.conversation) conversationBlock(box, row.conversation);
    if (row.assertions.length) {
      box.appendChild(el('h4', '', 'Assertions'));
      row.assertions.forEach(function (a) {
        const item = el('div', 'assertion ' + (a.pass ? 'pass' : 'fail'));
        item.appendChild(el('div', '', (a.pass ? '✓ ' : '✗ ') + a.type + (a.message ? ': ' + a.message : '')));
        if (a.judge) item.appendChild(el('div', 'muted', a.judge));
        if (a.expected !== undefined) {
          item.appendChild(el('div', 'muted', 'expected'));
          item.appendChild(el('pre', '', a.expected));
        }
        if (a.actual !== undefined) {
          item.appendChild(el('div', 'muted', 'actual'));
          item.appendChild(el('pre', '', a.actual));
        }
        if (a.diff) {
          item.appendChild(el('div', 'muted', 'diff (− expected, + actual)'));
          item.appendChild(diffBlock(a.diff));
        }
        box.appendChild(item);
      });
    }
    if (row.warnings) block(box, 'Warnings', row.warnings);
    if (row.stability) block(box, 'Stability', row.stability);
    if (row.sequential) block(box, 'Sequential runs', row.sequential);
    if (row.flaky) block(box, 'Flaky', row.flaky);
    if (row.variance) block(box, 'Agent and judge variance', row.variance);
    if (row.usage) block(box, 'Usage', row.usage);
    if (row.runs.length) {
      box.appendChild(el('h4', '', 'Runs'));
      row.runs.forEach(function (r) {
        box.appendChild(
          el(
            'div',
            'run ' + r.status,
            'run ' + r.run + ': ' + r.status + ' (' + r.duration + ')' + (r.error ? ' ' + r.error : ''),
          ),
        );
        if (r.output !== undefined) box.appendChild(el('pre', 'run-output', r.output));
      });
    }
    if (row.logs.length) block(box, 'Logs', row.logs.join('\n'));
    td.appendChild(box);
    tr.appendChild(td);
    return tr;
  }

  // A dynamic case: the user's messages on the right, the agent's on the left, each checkpoint
  // marked under the reply that reached it, then the checkpoints that were never reached.
  function conversationBlock(box, c) {
    box.appendChild(el('h4', '', 'Conversation'));
    box.appendChild(el('div', 'muted', c.summary));
    const chat = el('div', 'chat');
    c.turns.forEach(function (t) {
      if (t.user !== undefined) {
        const user = el('div', 'bubble user' + (t.from === 'input' ? ' input' : ''));
        user.appendChild(el('div', 'who', 'user · turn ' + t.turn + (t.from === 'input' ? ' (case input)' : '')));
        user.appendChild(el('div', 'text', t.user));
        chat.appendChild(user);
      }
      if (t.agent !== undefined) {
        const agent = el('div', 'bubble agent');
        agent.appendChild(el('div', 'who', 'agent · ' + t.duration));
        agent.appendChild(el('div', 'text', t.agent));
        chat.appendChild(agent);
      }
      if (t.error) chat.appendChild(el('div', 'bubble error', t.error));
      t.reached.forEach(function (id) {
        chat.appendChild(el('div', 'checkpoint reached', '✓ checkpoint ' + id + ' reached (turn ' + t.turn + ')'));
      });
    });
    if (c.final !== undefined) {
      const done = el('div', 'bubble user');
      done.appendChild(el('div', 'who', 'user · done'));
      done.appendChild(el('div', 'text', c.final));
      chat.appendChild(done);
    }
    c.checkpoints.forEach(function (cp) {
      if (!cp.reached)
        chat.appendChild(
          el(
            'div',
            'checkpoint missed' + (cp.required ? '' : ' optional'),
            '✗ checkpoint ' + cp.id + (cp.required ? '' : ' (optional)') + ' not reached: ' + cp.detail,
          ),
        );
    });
    box.appendChild(chat);
  }

  function diffBlock(lines) {
    const pre = el('pre', 'diff');
    lines.forEach(function (line) {
      pre.appendChild(el('span', line[0] === '+' ? 'ins' : line[0] === '-' ? 'del' : 'same', line[0] + ' ' + line[1]));
    });
    return pre;
  }

  tbody.addEventListener('click', function (event) {
    const tr = event.target.closest('tr.case');
    if (!tr) return;
    const index = Number(tr.dataset.index);
    if (state.open.has(index)) state.open.delete(index);
    else state.open.add(index);
    render();
  });
  document.getElementById('status-filter').addEventListener('change', function (event) {
    state.status = event.target.value;
    recompute();
  });
  document.getElementById('search').addEventListener('input', function (event) {
    state.query = event.target.value;
    recompute();
  });
  const sortHeader = document.getElementById('sort-duration');
  function cycleSort() {
    state.sort = state.sort === 0 ? -1 : state.sort === -1 ? 1 : 0;
    recompute();
  }
  sortHeader.addEventListener('click', cycleSort);
  sortHeader.addEventListener('keydown', function (event) {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      cycleSort();
    }
  });
  prev.addEventListener('click', function () {
    state.page--;
    render();
  });
  next.addEventListener('click', function () {
    state.page++;
    render();
  });

  // Export what the filter shows (every page of it), without the page's internal fields.
  function exported() {
    return visible.map(function (row) {
      return {
        id: row.id,
        status: row.status,
        grade: row.grade,
        duration_ms: row.duration_ms,
        source: row.source,
        tags: row.tags,
        error: row.error,
        input: row.input,
        output: row.output,
        expected: row.expected,
        assertions: row.assertions,
        stability: row.stability,
        flaky: row.flaky,
        sequential: row.sequential,
        variance: row.variance,
      };
    });
  }
  function csvCell(value) {
    let text = value === undefined || value === null ? '' : String(value);
    if (/^[=+\-@\t\r]/.test(text)) text = "'" + text; // keep spreadsheets from running it as a formula
    return /[",\r\n]/.test(text) ? '"' + text.replace(/"/g, '""') + '"' : text;
  }
  function download(name, type, content) {
    const link = el('a');
    link.href = URL.createObjectURL(new Blob([content], { type: type }));
    link.download = name;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () {
      URL.revokeObjectURL(link.href);
    }, 0);
  }
  document.getElementById('export-json').addEventListener('click', function () {
    download('agentest-results.json', 'application/json', JSON.stringify(exported(), null, 2));
  });
  document.getElementById('export-csv').addEventListener('click', function () {
    const columns = ['id', 'status', 'grade', 'duration_ms', 'source', 'error'];
    const lines = [columns.join(',')].concat(
      exported().map(function (row) {
        return columns
          .map(function (c) {
            return csvCell(row[c]);
          })
          .join(',');
      }),
    );
    download('agentest-results.csv', 'text/csv', lines.join('\r\n') + '\r\n');
  });

  render();
})();
