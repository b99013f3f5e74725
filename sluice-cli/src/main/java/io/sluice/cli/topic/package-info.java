/** {@code sluice topic}: topics made where no other tool is at hand (the quick start's broker creates none). */
package io.sluice.cli.topic;
