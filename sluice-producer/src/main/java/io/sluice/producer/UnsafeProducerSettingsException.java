package io.sluice.producer;

import java.util.List;
import java.util.stream.Collectors;

/** Producer settings were refused because they can lose records and the caller did not allow loss. */
public final class UnsafeProducerSettingsException extends IllegalArgumentException {

    private final transient List<LossRisk> risks;

    public UnsafeProducerSettingsException(List<LossRisk> risks) {
        super("refused producer settings that can lose records: "
                + risks.stream().map(LossRisk::toString).collect(Collectors.joining("; ")));
        this.risks = List.copyOf(risks);
    }

    public List<LossRisk> risks() {
        return risks;
    }
}
