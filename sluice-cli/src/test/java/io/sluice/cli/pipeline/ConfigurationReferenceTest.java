package io.sluice.cli.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/configuration.md and docs/mirror-configuration.md are the references generated from the code, never stale. */
class ConfigurationReferenceTest {

    @Test
    void theReferenceInDocsIsTheOneTheCodeGenerates() throws Exception {
        Path file = Path.of("..", "docs", "configuration.md");
        String written = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "(missing)";
        assertEquals(ConfigurationReference.markdown(), written,
                "docs/configuration.md is stale; regenerate it from the repository root with: "
                        + "./sluice docs > docs/configuration.md");
    }

    @Test
    void theMirrorReferenceInDocsIsTheOneTheCodeGenerates() throws Exception {
        Path file = Path.of("..", "docs", "mirror-configuration.md");
        String written = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "(missing)";
        assertEquals(ConfigurationReference.mirrorMarkdown(), written,
                "docs/mirror-configuration.md is stale; regenerate it from the repository root with: "
                        + "./sluice docs --mirror > docs/mirror-configuration.md");
    }
}
