/**
 * The four templates a new system ships with (contract §6.7), in Liquid: `results` is the card query's rows, and
 * their labels go through the `t` filter (card-labels.ts), so a card reads in the language of whoever looks at it.
 * Each carries its own small stylesheet under a `cc-` prefix, so a card looks the same in the console's
 * preview frame and in the CTI, and no element needs an inline style. Kept as data of migration 0018: a later
 * change of these texts is a new migration, never an edit here.
 */

const style = `<style>
  .cc-card { font-family: system-ui, sans-serif; font-size: 14px; color: #1f2933; border: 1px solid #e4e7eb; border-radius: 8px; overflow: hidden; margin-bottom: 12px; }
  .cc-head { background: #c92a2a; color: #fff; padding: 8px 12px; font-weight: 600; }
  .cc-sub { font-weight: 400; opacity: 0.9; font-size: 12px; }
  .cc-body { padding: 8px 12px; }
  .cc-fields { display: grid; grid-template-columns: max-content 1fr; gap: 4px 12px; margin: 0; }
  .cc-fields dt { color: #616e7c; }
  .cc-fields dd { margin: 0; }
  .cc-table { border-collapse: collapse; width: 100%; }
  .cc-table th { text-align: left; color: #616e7c; font-weight: 600; border-bottom: 1px solid #e4e7eb; padding: 4px 8px; }
  .cc-table td { border-bottom: 1px solid #f0f2f4; padding: 4px 8px; }
  .cc-in { color: #2b8a3e; }
  .cc-out { color: #1864ab; }
  .cc-empty { color: #616e7c; font-style: italic; padding: 8px 12px; }
</style>`;

export const IDENTITY = `<!-- color: red -->
${style}
{% for row in results %}
<div class="cc-card">
  <div class="cc-head">{{ row.name }}{% if row.company %} <span class="cc-sub">{{ row.company }}</span>{% endif %}</div>
  <dl class="cc-fields cc-body">
    {% if row.extension %}<dt>{{ "Extension" | t }}</dt><dd>{{ row.extension }}</dd>{% endif %}
    {% if row.workphone %}<dt>{{ "Work" | t }}</dt><dd>{{ row.workphone }}</dd>{% endif %}
    {% if row.cellphone %}<dt>{{ "Mobile" | t }}</dt><dd>{{ row.cellphone }}</dd>{% endif %}
    {% if row.homephone %}<dt>{{ "Home" | t }}</dt><dd>{{ row.homephone }}</dd>{% endif %}
    {% if row.fax %}<dt>{{ "Fax" | t }}</dt><dd>{{ row.fax }}</dd>{% endif %}
    {% if row.workemail %}<dt>{{ "Email" | t }}</dt><dd>{{ row.workemail }}</dd>{% endif %}
    {% if row.title %}<dt>{{ "Title" | t }}</dt><dd>{{ row.title }}</dd>{% endif %}
    {% if row.type %}<dt>{{ "Phonebook" | t }}</dt><dd>{{ row.type }}</dd>{% endif %}
    {% assign scheme = row.url | downcase | slice: 0, 4 %}
    {% if scheme == "http" %}<dt>{{ "Web" | t }}</dt><dd><a href="{{ row.url }}" target="_blank" rel="noopener noreferrer">{{ row.url }}</a></dd>{% endif %}
  </dl>
</div>
{% else %}
<div class="cc-card"><div class="cc-empty">{{ "No contact found" | t }}</div></div>
{% endfor %}
`;

export const LASTCALLS = `<!-- color: red -->
${style}
<div class="cc-card">
  <div class="cc-head">{{ "Last calls" | t }}</div>
  {% if results.size > 0 %}
  <table class="cc-table">
    <thead><tr><th>{{ "Date" | t }}</th><th>{{ "Time" | t }}</th><th></th><th>{{ "From" | t }}</th><th>{{ "To" | t }}</th><th>{{ "Duration (s)" | t }}</th></tr></thead>
    <tbody>
      {% for row in results %}
      <tr>
        <td>{{ row.date }}</td>
        <td>{{ row.time }}</td>
        <td>{% if row.direction == "in" %}<span class="cc-in">{{ "in" | t }}</span>{% else %}<span class="cc-out">{{ "out" | t }}</span>{% endif %}</td>
        <td>{{ row.clid | default: row.src }}</td>
        <td>{{ row.dst }}</td>
        <td>{{ row.billsec }}</td>
      </tr>
      {% endfor %}
    </tbody>
  </table>
  {% else %}
  <div class="cc-empty">{{ "No calls yet" | t }}</div>
  {% endif %}
</div>
`;

export const STATISTICS = `<!-- color: red -->
${style}
<div class="cc-card">
  <div class="cc-head">{{ "Statistics" | t }}</div>
  <dl class="cc-fields cc-body">
    {% for row in results %}{% for pair in row %}<dt>{{ pair[0] }}</dt><dd>{{ pair[1] }}</dd>{% endfor %}{% endfor %}
  </dl>
  {% if results.size == 0 %}<div class="cc-empty">{{ "No data" | t }}</div>{% endif %}
</div>
`;

export const TABLE = `<!-- color: red -->
${style}
<div class="cc-card">
  {% if results.size > 0 %}
  <table class="cc-table">
    <thead><tr>{% for pair in results.first %}<th>{{ pair[0] }}</th>{% endfor %}</tr></thead>
    <tbody>
      {% for row in results %}<tr>{% for pair in row %}<td>{{ pair[1] }}</td>{% endfor %}</tr>{% endfor %}
    </tbody>
  </table>
  {% else %}
  <div class="cc-empty">{{ "No rows" | t }}</div>
  {% endif %}
</div>
`;

export const BUILTIN_TEMPLATES: Record<string, string> = {
  identity: IDENTITY,
  lastcalls: LASTCALLS,
  statistics: STATISTICS,
  table: TABLE,
};
