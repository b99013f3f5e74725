package io.sluice.cli.reassign;

import picocli.CommandLine;

/**
 * A share of a disk: {@code 80%}, or {@code 0.8}. Decimals are allowed ({@code 12.5%}), for volumes where a small
 * move is a small fraction.
 *
 * <p>Stateless.
 */
public final class DiskShareValue implements CommandLine.ITypeConverter<Double> {

    @Override
    public Double convert(String text) {
        String t = text.trim();
        try {
            double share = t.endsWith("%") ? Double.parseDouble(t.substring(0, t.length() - 1).trim()) / 100
                    : Double.parseDouble(t);
            if (!(share > 0 && share <= 1)) {
                // a bare 80 was read as 8,000%: the words named the bounds but not the mistake
                String meant = !t.endsWith("%") && share > 1 && share <= 100 ? " (for " + t + " percent, write " + t
                        + "%)" : "";
                throw new CommandLine.TypeConversionException("a disk share is above 0% and at most 100% (80% or "
                        + "0.8), not " + t + meant);
            }
            return share;
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException("a disk share is a percentage like 80% or a fraction like "
                    + "0.8, not " + t);
        }
    }
}
