package io.sluice.cli.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md, docs/mirror-configuration.md and docs/merge-configuration.md are the references generated from
 * the code, never stale.
 */
class ConfigurationReferenceTest {

    @Test
    void theReferenceInDocsIsTheOneTheCodeGenerates() throws Exception {
        assertGenerated("configuration.md", ConfigurationReference.markdown(), "./sluice docs");
    }

    @Test
    void theMirrorReferenceInDocsIsTheOneTheCodeGenerates() throws Exception {
        assertGenerated("mirror-configuration.md", ConfigurationReference.mirrorMarkdown(), "./sluice docs --mirror");
    }

    @Test
    void theMergeReferenceInDocsIsTheOneTheCodeGenerates() throws Exception {
        assertGenerated("merge-configuration.md", ConfigurationReference.mergeMarkdown(), "./sluice docs --merge");
    }

    private static void assertGenerated(String name, String generated, String command) throws Exception {
        Path file = Path.of("..", "docs", name);
        String written = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "(missing)";
        assertEquals(generated, written, "docs/" + name + " is stale; regenerate it from the repository root with: "
                + command + " > docs/" + name);
    }
}
