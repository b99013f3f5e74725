/**
 * The machinery of configuration files: YAML with positions, typed keys with their defaults and descriptions,
 * variables, and problems reported with file:line:column.
 */
package io.sluice.cli.config;
