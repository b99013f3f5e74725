package io.sluice.cli.config;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Reads a YAML document into {@link Value}s with positions. The document is only composed into nodes, never
 * constructed into Java objects, so YAML's own typing ({@code no} read as false, {@code 010} as 8) never applies: the
 * key being set decides how its text is read. {@code ${VAR}} references are expanded in scalar values here.
 *
 * <p>Messages quote the problem, never the line: YAML's error snippets would echo a secret written on it.
 *
 * <p>Threading: one instance per document.
 */
final class YamlReader {

    private static final int MAX_DEPTH = 32;

    private final String file;
    private final Variables variables;
    private final Problems problems;

    YamlReader(String file, Variables variables, Problems problems) {
        this.file = file;
        this.variables = variables;
        this.problems = problems;
    }

    /** The document's top-level mapping, or null when there is none (after reporting why). */
    Value.Mapping read(String text) {
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(64);
        options.setAllowRecursiveKeys(false);
        options.setProcessComments(false);
        Node root;
        try {
            root = new Yaml(options).compose(new StringReader(text));
        } catch (MarkedYAMLException e) {
            Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            String context = e.getContext() == null ? "" : " (" + e.getContext()
                    + (e.getContextMark() == null || e.getContextMark() == mark ? "" : " that starts at line "
                            + (e.getContextMark().getLine() + 1) + ", column " + (e.getContextMark().getColumn() + 1))
                    + ")";
            problems.add(mark == null ? Position.startOf(file) : position(mark),
                    "not valid YAML: " + e.getProblem() + context);
            return null;
        } catch (YAMLException e) {
            problems.add(Position.startOf(file), "not valid YAML: " + e.getMessage());
            return null;
        }
        if (root == null) {
            problems.add(Position.startOf(file), "the file is empty; a pipeline has the sections source, processing "
                    + "(optional) and sink");
            return null;
        }
        Value value = convert(root, "", 0);
        if (value instanceof Value.Mapping mapping) {
            return mapping;
        }
        problems.add(value.position(), "a pipeline is a section of keys (source:, processing:, sink:), not "
                + value.kind());
        return null;
    }

    /** @param path the dotted key path of the node, for messages */
    private Value convert(Node node, String path, int depth) {
        Position at = position(node.getStartMark());
        if (depth > MAX_DEPTH) {
            problems.add(at, "nested more than " + MAX_DEPTH + " levels deep (a recursive alias?)");
            return new Value.Broken(at);
        }
        if (node instanceof ScalarNode scalar) {
            return scalar(scalar, path, at);
        }
        if (node instanceof SequenceNode sequence) {
            List<Value> items = new ArrayList<>();
            for (Node item : sequence.getValue()) {
                items.add(convert(item, path, depth + 1));
            }
            return new Value.Sequence(items, at);
        }
        MappingNode mapping = (MappingNode) node;
        List<Value.Entry> entries = new ArrayList<>();
        Map<String, Position> seen = new HashMap<>();
        for (NodeTuple tuple : mapping.getValue()) {
            Position keyAt = position(tuple.getKeyNode().getStartMark());
            if (!(tuple.getKeyNode() instanceof ScalarNode key) || tuple.getKeyNode().getTag() == Tag.MERGE) {
                problems.add(keyAt, "keys must be plain names (no lists, sections or '<<' merges as keys)");
                continue;
            }
            Position first = seen.putIfAbsent(key.getValue(), keyAt);
            if (first != null) {
                problems.add(keyAt, "duplicate key '" + key.getValue() + "' (first set at line " + first.line() + ")");
                continue;
            }
            String child = path.isEmpty() ? key.getValue() : path + "." + key.getValue();
            entries.add(new Value.Entry(key.getValue(), keyAt, convert(tuple.getValueNode(), child, depth + 1)));
        }
        return new Value.Mapping(entries, at);
    }

    private Value scalar(ScalarNode node, String path, Position at) {
        String text = node.getValue();
        boolean nul = node.getTag() == Tag.NULL && node.isPlain();
        if (nul || !Substitution.hasReferences(text)) {
            return new Value.Scalar(nul ? "" : text, nul, null, at);
        }
        try {
            return new Value.Scalar(Substitution.expand(text, variables), false, text, at);
        } catch (Substitution.Unresolved e) {
            problems.add(at, (path.isEmpty() ? "" : path + ": ") + e.getMessage());
            return new Value.Broken(at);
        }
    }

    private Position position(Mark mark) {
        return new Position(file, mark.getLine() + 1, mark.getColumn() + 1);
    }
}
