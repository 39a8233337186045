package dev.spanprofile.actuate.info;

import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

import dev.spanprofile.SpanProfiler;

import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.actuate.info.InfoContributor;

/**
 * {@code spanprofile} in {@code /actuator/info}: which engine samples, and which version
 * of spanprofile runs.
 */
public class SpanProfileInfoContributor implements InfoContributor {

	private static final String VERSION_RESOURCE = "META-INF/spanprofile/version.properties";

	private final SpanProfiler profiler;

	private final String version;

	public SpanProfileInfoContributor(SpanProfiler profiler) {
		this.profiler = profiler;
		this.version = version();
	}

	@Override
	public void contribute(Info.Builder builder) {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("engine", this.profiler.status().engine());
		if (this.version != null) {
			details.put("version", this.version);
		}
		builder.withDetail("spanprofile", details);
	}

	/**
	 * Written by the build (resource filtering): also there when the classes do not come
	 * from a jar.
	 */
	private static String version() {
		try (InputStream in = SpanProfileInfoContributor.class.getClassLoader().getResourceAsStream(VERSION_RESOURCE)) {
			if (in != null) {
				Properties properties = new Properties();
				properties.load(in);
				String version = properties.getProperty("version");
				if (version != null && !version.isBlank() && !version.startsWith("@")) {
					return version;
				}
			}
		}
		catch (IOException ex) {
			// Fall back to the jar's manifest.
		}
		return SpanProfileInfoContributor.class.getPackage().getImplementationVersion();
	}

}
