package io.sluice.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A family of sections ({@code node.*}): the file names its sections, each has the family's keys, checked as any
 * other key (types, unknown keys with suggestions, required keys per named section), and bound under the file's path.
 */
class KeyFamiliesTest {

    private static final ConfigKey<String> HOST = ConfigKey.required("node.*.host", Types.STRING, "The host.");
    private static final ConfigKey<Integer> PORT = ConfigKey.withDefault("node.*.port", Types.integer(1, 65_535),
            "9092", "The port.");
    private static final ConfigKey<Boolean> TLS = ConfigKey.optional("node.*.tls.enabled", Types.BOOLEAN, "TLS.");
    private static final ConfigKey<String> NAME = ConfigKey.required("name", Types.STRING, "The name.");
    private static final KeyCatalog CATALOG = new KeyCatalog(List.of(new KeyCatalog.Section("", "a file"),
            new KeyCatalog.Section("node", "nodes"), new KeyCatalog.Section("node.*", "a node"),
            new KeyCatalog.Section("node.*.tls", "its TLS")), List.of(NAME, HOST, PORT, TLS));

    private static Settings read(String text) throws ConfigException {
        return new SettingsReader(CATALOG, Variables.of(Map.of())).read("f.yaml", text);
    }

    private static <T> ConfigKey<T> in(String node, ConfigKey<T> key, ValueType<T> type) {
        return ConfigKey.optional(key.path().replace("*", node), type, "-");
    }

    @Test
    void eachNamedSectionHasTheFamilysKeysBoundUnderItsOwnPath() throws Exception {
        Settings s = read("""
                name: n
                node:
                  a:
                    host: h1
                    tls:
                      enabled: true
                  b-2:
                    host: h2
                    port: 9093
                """);
        assertEquals("h1", s.get(in("a", HOST, Types.STRING)));
        assertEquals("h2", s.get(in("b-2", HOST, Types.STRING)));
        assertEquals(9093, s.get(in("b-2", PORT, Types.integer(1, 65_535))));
        assertEquals(true, s.get(in("a", TLS, Types.BOOLEAN)));
        assertEquals(List.of("a", "b-2"), s.sectionsIn("node"));
        assertEquals(List.of("host", "port", "tls"), CATALOG.names("node.a").stream().sorted().toList());
        assertEquals("node.<name>.tls.enabled", KeyCatalog.readable(TLS.path()));
    }

    @Test
    void mistakesInNamedSectionsAreReportedAtTheirPlaceAllAtOnce() {
        ConfigException e = assertThrows(ConfigException.class, () -> read("""
                name: n
                node:
                  a:
                    hots: h1
                  b:
                    host: h2
                    port: many
                  Upper:
                    host: h3
                """));
        List<String> problems = e.problems().stream().map(ConfigProblem::toString).toList();
        assertEquals(List.of(
                "f.yaml:4:5: unknown key 'hots' in node.a; did you mean 'host'?",
                "f.yaml:7:11: node.b.port: 'many' is not a whole number",
                "f.yaml:8:3: unknown key 'Upper' in node; expected one of: <name>"), problems);
    }

    @Test
    void aRequiredKeyOfTheFamilyIsMissingOnlyInTheSectionThatLacksIt() {
        ConfigException e = assertThrows(ConfigException.class, () -> read("""
                name: n
                node:
                  a:
                    host: h1
                  b:
                    port: 1
                """));
        assertEquals(1, e.problems().size(), e.getMessage());
        assertTrue(e.getMessage().startsWith("f.yaml:5:3: node.b: missing required key 'host'"), e.getMessage());
    }

    @Test
    void aFamilyOnlyMatchesNamesThatKeysCouldHave() {
        assertTrue(KeyCatalog.matches("node.*.host", "node.a-1.host"));
        assertTrue(!KeyCatalog.matches("node.*.host", "node.A.host"));
        assertTrue(!KeyCatalog.matches("node.*.host", "node.a.b.host"));
        assertTrue(!KeyCatalog.matches("node.a.host", "node.a.host"), "an exact path is no family");
    }
}
