/// The dashboard's Mustache templates and static files, compiled into the binary by SwiftPM
/// (`embedInCode`), so a deployed coordinator serves them with nothing beside the executable.
public enum DashboardTemplates {
    /// Template name (the file's name without `.mustache`) → its text.
    public static var templates: [String: String] {
        [
            "layout": PackageResources.layout_mustache, "login": PackageResources.login_mustache,
            "overview": PackageResources.overview_mustache, "jobs": PackageResources.jobs_mustache,
            "confirm": PackageResources.confirm_mustache, "failed": PackageResources.failed_mustache,
            "job": PackageResources.job_mustache, "stages": PackageResources.stages_mustache,
            "batches": PackageResources.batches_mustache, "workers": PackageResources.workers_mustache,
            "message": PackageResources.message_mustache,
        ].mapValues { String(decoding: $0, as: UTF8.self) }
    }

    public static var stylesheet: [UInt8] { PackageResources.dashboard_css }
    public static var script: [UInt8] { PackageResources.dashboard_js }
}
