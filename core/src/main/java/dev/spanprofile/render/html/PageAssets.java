package dev.spanprofile.render.html;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * The style sheet and scripts inlined into the pages, and the Content-Security-Policy
 * that allows exactly them.
 * <p>
 * Pages are one self-contained file (they must work saved to disk and on networks without
 * outside access), so script and style are inline. The policy allows them by their
 * SHA-256 hashes, not with {@code 'unsafe-inline'}: nothing else can run, not even a
 * script that an escaping bug let into a frame name.
 */
public final class PageAssets {

	static final String STYLE = HtmlTemplate.resourceText("spanprofile.css");

	/**
	 * The flame graph's modules joined into one module script, then the timeline's: one
	 * script block, one hash.
	 */
	static final String FLAME_GRAPH_SCRIPT = ScriptModules.join("flamegraph", "page") + "\n"
			+ ScriptModules.join("timeline", "page");

	/** The span list's modules: its table and its scatter. */
	static final String INDEX_SCRIPT = ScriptModules.join("spans", "page");

	/**
	 * A span name's latency heatmap: a module script of its own, inside the heatmap's
	 * section.
	 */
	static final String HEATMAP_SCRIPT = ScriptModules.join("heatmap", "page");

	private static final String SOURCES = "script-src " + hash(FLAME_GRAPH_SCRIPT) + " " + hash(INDEX_SCRIPT) + " "
			+ hash(HEATMAP_SCRIPT) + "; style-src " + hash(STYLE);

	/**
	 * The policy as a page's {@code <meta>} can carry it ({@code frame-ancestors} only
	 * works as a header).
	 */
	static final String META_POLICY = "default-src 'none'; " + SOURCES + "; img-src data:; base-uri 'none'; "
			+ "form-action 'none'";

	/**
	 * The span list's policy: the pages' own, and requests to its own origin, for the
	 * form that starts and cancels captures with {@code fetch}. Only the list sends any.
	 */
	static final String INDEX_META_POLICY = META_POLICY + "; connect-src 'self'";

	private static final String HEADER_POLICY = META_POLICY + "; frame-ancestors 'self'";

	private static final String INDEX_HEADER_POLICY = INDEX_META_POLICY + "; frame-ancestors 'self'";

	private PageAssets() {
	}

	/**
	 * The {@code Content-Security-Policy} header value to send with the pages: no source
	 * but the pages' own inline script and style (by hash), no network access, no framing
	 * by other sites.
	 */
	public static String contentSecurityPolicy() {
		return HEADER_POLICY;
	}

	/**
	 * The {@code Content-Security-Policy} header value for the span list: the pages' own,
	 * and {@code fetch} to its own origin for its capture form.
	 */
	public static String indexContentSecurityPolicy() {
		return INDEX_HEADER_POLICY;
	}

	private static String hash(String text) {
		try {
			byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
			return "'sha256-" + Base64.getEncoder().encodeToString(digest) + "'";
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
