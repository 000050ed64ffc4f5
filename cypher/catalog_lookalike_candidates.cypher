// The tools of one catalog a name could look like (PUT's look-alike check): the name's skeleton itself
// and every non-ASCII name ($ascii: a regex of ASCII-only names); kg_tools.tool_spec compares skeletons.
MATCH (t:Tool {catalog: $catalog})
WHERE t.name = $skeleton OR NOT t.name =~ $ascii
RETURN t.name AS name
