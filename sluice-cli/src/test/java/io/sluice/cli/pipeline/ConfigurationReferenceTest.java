package io.sluice.cli.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/configuration.md is the reference generated from the code, and never stale. */
class ConfigurationReferenceTest {

    @Test
    void theReferenceInDocsIsTheOneTheCodeGenerates() throws Exception {
        Path file = Path.of("..", "docs", "configuration.md");
        String written = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "(missing)";
        assertEquals(ConfigurationReference.markdown(), written,
                "docs/configuration.md is stale; regenerate it from the repository root with: "
                        + "./sluice docs > docs/configuration.md");
    }
}
