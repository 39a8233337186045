import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;

/**
 * Runs an application's main class the way its own main method would, with Spring Boot's
 * BufferingApplicationStartup, so that /actuator/startup has the start's steps to
 * compare with spanprofile's: {@code -Dlauncher.main=<the application's class>}.
 */
public class BufferingStartupLauncher {

	public static void main(String[] args) throws ClassNotFoundException {
		SpringApplication application = new SpringApplication(Class.forName(System.getProperty("launcher.main")));
		application.setApplicationStartup(new BufferingApplicationStartup(100_000));
		application.run(args);
	}

}
