# Install skill-audit on Windows from a release archive after checking the archive's SHA-256.
#
#   powershell -ExecutionPolicy Bypass -c "irm https://github.com/skill-audit/skill-audit/releases/latest/download/skill-audit-installer.ps1 | iex"
#
# Downloads skill-audit-vVERSION-x86_64-pc-windows-msvc.zip and its .sha256, refuses the
# archive when the checksum differs, and puts skill-audit.exe into
# $env:SKILL_AUDIT_INSTALL_DIR (default %USERPROFILE%\.local\bin), which it adds to the user's
# PATH. $env:SKILL_AUDIT_VERSION picks a version (default: the release this copy came from, or
# the latest); $env:SKILL_AUDIT_DOWNLOAD_URL another place to download from. This is the
# Windows twin of dist/install.sh.

$ErrorActionPreference = 'Stop'
$ProgressPreference = 'SilentlyContinue'

$repoUrl = 'https://github.com/skill-audit/skill-audit'
# Set by the release workflow in the copy attached to a release.
$defaultVersion = ''

function Fail([string]$message) {
    Write-Error "skill-audit install: $message" -ErrorAction Continue
    exit 2
}

$version = if ($env:SKILL_AUDIT_VERSION) { $env:SKILL_AUDIT_VERSION } else { $defaultVersion }
$dir = if ($env:SKILL_AUDIT_INSTALL_DIR) { $env:SKILL_AUDIT_INSTALL_DIR } else { Join-Path $HOME '.local\bin' }
$base = if ($env:SKILL_AUDIT_DOWNLOAD_URL) { $env:SKILL_AUDIT_DOWNLOAD_URL } else { "$repoUrl/releases/download" }

$arch = [System.Runtime.InteropServices.RuntimeInformation]::OSArchitecture.ToString()
if ($arch -ne 'X64') {
    Fail "no release archive for Windows on $arch. Build it from source instead: cargo install --locked skill-audit"
}
$target = 'x86_64-pc-windows-msvc'

if (-not $version) {
    # /releases/latest redirects to /releases/tag/vVERSION.
    $response = Invoke-WebRequest -Uri "$repoUrl/releases/latest" -UseBasicParsing
    $final = $response.BaseResponse.ResponseUri
    if (-not $final) { $final = $response.BaseResponse.RequestMessage.RequestUri }
    $version = ($final.ToString() -split '/tag/v')[-1]
    if (-not $version -or $version -match '/') { Fail 'could not find the latest release; set SKILL_AUDIT_VERSION' }
}
$version = $version.TrimStart('v')

$name = "skill-audit-v$version-$target"
$url = "$($base.TrimEnd('/'))/v$version/$name.zip"
$tmp = Join-Path ([System.IO.Path]::GetTempPath()) ("skill-audit-" + [System.Guid]::NewGuid())
New-Item -ItemType Directory -Path $tmp | Out-Null
try {
    $zip = Join-Path $tmp "$name.zip"
    Write-Host "skill-audit install: downloading $url"
    Invoke-WebRequest -Uri $url -OutFile $zip -UseBasicParsing
    Invoke-WebRequest -Uri "$url.sha256" -OutFile "$zip.sha256" -UseBasicParsing

    $expected = ((Get-Content "$zip.sha256" -Raw).Trim() -split '\s+')[0].ToLowerInvariant()
    $actual = (Get-FileHash -Algorithm SHA256 -LiteralPath $zip).Hash.ToLowerInvariant()
    if ($expected -ne $actual) {
        Write-Error "skill-audit install: checksum mismatch for $name.zip: $name.zip.sha256 says $expected, the download is $actual; not installing it" -ErrorAction Continue
        exit 1
    }

    Expand-Archive -LiteralPath $zip -DestinationPath (Join-Path $tmp 'unpack')
    $exe = Join-Path $tmp "unpack\$name\skill-audit.exe"
    if (-not (Test-Path $exe)) { Fail "$name.zip does not hold $name\skill-audit.exe" }
    New-Item -ItemType Directory -Force -Path $dir | Out-Null
    Copy-Item -Force $exe (Join-Path $dir 'skill-audit.exe')
} finally {
    Remove-Item -Recurse -Force $tmp -ErrorAction SilentlyContinue
}

$installed = Join-Path $dir 'skill-audit.exe'
Write-Host "skill-audit install: installed $(& $installed --version) at $installed"
$userPath = [Environment]::GetEnvironmentVariable('Path', 'User')
if (-not (($userPath -split ';') -contains $dir)) {
    [Environment]::SetEnvironmentVariable('Path', "$dir;$userPath", 'User')
    Write-Host "skill-audit install: added $dir to your PATH; open a new terminal to use it"
}
