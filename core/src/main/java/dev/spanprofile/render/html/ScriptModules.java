package dev.spanprofile.render.html;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The page scripts' ES modules ({@code .mjs} files beside the templates) joined into the
 * one inline module a page carries, each module's scope kept as a function's.
 * <p>
 * Why inline rather than served one file per module: a page must work saved to disk (the
 * test library writes them for failed assertions), and browsers refuse module scripts
 * from {@code file:} URLs; and the pages' policy admits scripts by hash only, which a
 * static {@code import} of a served file cannot satisfy. So the modules are written, and
 * unit-tested by Node, as modules, and joined here without a build step: an import
 * becomes a destructuring of the imported module's object, an export a property of it.
 * That asks the modules to keep to a simple form, checked on loading: named imports on
 * one line from a sibling ({@code import { a, b } from './x.mjs';}) and exports as
 * {@code export function} or {@code export const}. A module's variable is named after its
 * directory too ({@code module$timeline$page}), so the modules of two directories can
 * share a script.
 */
final class ScriptModules {

	private static final Pattern IMPORT = Pattern.compile("import \\{ ([\\w$, ]+) \\} from '\\./([\\w-]+)\\.mjs';");

	private static final Pattern EXPORT = Pattern.compile("export (?:function|const) ([\\w$]+)");

	private final String directory;

	private final Map<String, String> joined = new LinkedHashMap<>();

	private final Set<String> loading = new LinkedHashSet<>();

	private ScriptModules(String directory) {
		this.directory = directory;
	}

	/**
	 * The module {@code entry} (a name without {@code .mjs}) of resource
	 * {@code directory}, with every module it imports before it, once each, as one
	 * script.
	 */
	static String join(String directory, String entry) {
		ScriptModules modules = new ScriptModules(directory);
		modules.add(entry);
		return String.join("\n", modules.joined.values());
	}

	private void add(String name) {
		if (this.joined.containsKey(name)) {
			return;
		}
		if (!this.loading.add(name)) {
			throw new IllegalStateException("Import cycle through " + this.loading);
		}
		String source = HtmlTemplate.resourceText(this.directory + "/" + name + ".mjs");
		StringBuilder body = new StringBuilder(source.length() + 256);
		List<String> exports = new ArrayList<>();
		for (String line : source.split("\n", -1)) {
			if (line.startsWith("import")) {
				Matcher matcher = IMPORT.matcher(line);
				if (!matcher.matches()) {
					throw new IllegalStateException(name + ".mjs: an import the pages cannot join: " + line);
				}
				add(matcher.group(2));
				body.append("const { ")
					.append(matcher.group(1))
					.append(" } = ")
					.append(variable(this.directory, matcher.group(2)))
					.append(";\n");
			}
			else if (line.startsWith("export")) {
				Matcher matcher = EXPORT.matcher(line);
				if (!matcher.lookingAt()) {
					throw new IllegalStateException(name + ".mjs: an export the pages cannot join: " + line);
				}
				exports.add(matcher.group(1));
				body.append(line.substring("export ".length())).append('\n');
			}
			else {
				body.append(line).append('\n');
			}
		}
		this.loading.remove(name);
		this.joined.put(name, "const " + variable(this.directory, name) + " = (() => {\n" + body + "return { "
				+ String.join(", ", exports) + " };\n})();");
	}

	private static String variable(String directory, String module) {
		return "module$" + directory.replaceAll("\\W", "_") + "$" + module.replace('-', '_');
	}

}
