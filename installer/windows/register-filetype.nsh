; Registers .safetensors with Tensorscope. Included into the CPack NSIS install section.
; SHCTX is HKLM for an all-users install and HKCU for a per-user one (CPack sets the shell context).
; The extension's default ProgID is only taken when nobody owns it; Windows keeps the user's own
; choice anyway and lists us under "Open with" through OpenWithProgids.
WriteRegStr SHCTX "Software\Classes\Tensorscope.safetensors" "" "Safetensors model weights"
WriteRegStr SHCTX "Software\Classes\Tensorscope.safetensors\DefaultIcon" "" "$INSTDIR\share\icons\io.github.tensorscope.Tensorscope-application-x-safetensors.ico"
WriteRegStr SHCTX "Software\Classes\Tensorscope.safetensors\shell" "" "open"
WriteRegStr SHCTX "Software\Classes\Tensorscope.safetensors\shell\open" "" "Open with Tensorscope"
WriteRegStr SHCTX "Software\Classes\Tensorscope.safetensors\shell\open\command" "" '"$INSTDIR\bin\tensorscope.exe" "%1"'
WriteRegStr SHCTX "Software\Classes\.safetensors\OpenWithProgids" "Tensorscope.safetensors" ""
ReadRegStr $0 SHCTX "Software\Classes\.safetensors" ""
StrCmp $0 "" 0 tensorscope_ext_owned
  WriteRegStr SHCTX "Software\Classes\.safetensors" "" "Tensorscope.safetensors"
  WriteRegStr SHCTX "Software\Classes\.safetensors" "Content Type" "application/x-safetensors"
tensorscope_ext_owned:
WriteRegStr SHCTX "Software\Classes\Applications\tensorscope.exe" "FriendlyAppName" "Tensorscope"
WriteRegStr SHCTX "Software\Classes\Applications\tensorscope.exe\SupportedTypes" ".safetensors" ""
; SHCNE_ASSOCCHANGED: Explorer reloads icons and verbs without a log-out.
System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'
