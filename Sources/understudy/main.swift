import UnderstudyServer
import Foundation

exit(await UnderstudyCommand.main(CommandLine.arguments))
